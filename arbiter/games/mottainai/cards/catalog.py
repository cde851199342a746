"""The 54 cards as data: id, name, material, timing window and our own paraphrase.

Value and task follow from the material (rules: Card Anatomy). Behaviour lives in
``effects/``, one module per window; the text here is a one-line reminder written for
this project (cards.md §2), never the printed wording.
"""

from __future__ import annotations

from dataclasses import dataclass

from arbiter.core.hidden import FaceTable, is_hidden

MATERIALS = ("PAPER", "STONE", "CLOTH", "CLAY", "METAL")
VALUE = {"PAPER": 1, "STONE": 2, "CLOTH": 2, "CLAY": 3, "METAL": 3}
"""Rules: Card Anatomy: points as a work, cards needed to complete it, cover it gives."""
TASKS = {"PAPER": "CLERK", "STONE": "MONK", "CLOTH": "TAILOR", "CLAY": "POTTER", "METAL": "SMITH"}
"""The task (and helper job) of each material."""

WINDOWS = (
    "scoring",
    "boosters",
    "instead_of",
    "continuous",
    "obstruction",
    "morning_night",
    "before_task",
    "before_tailor",
    "after_this",
    "after_work",
    "after_action",
)
"""The timing windows of the rules' effect glossary, one ``effects/`` module each."""


@dataclass(frozen=True)
class Card:
    """One card of the deck (both copies of a two-deck game share it)."""

    id: str
    name: str
    material: str
    window: str
    text: str
    moment: str = ""
    """For morning/night effects: "morning" or "night"."""

    @property
    def value(self) -> int:
        return VALUE[self.material]

    @property
    def task(self) -> str:
        return TASKS[self.material]


# fmt: off
_ROWS = (
    # PAPER (1, CLERK)
    ("crane", "Crane", "PAPER", "boosters", "When you SMITH or CRAFT, return PAPER cards from your bench as extra supports."),
    ("curtain", "Curtain", "PAPER", "obstruction", "An opponent must reveal CLOTH/METAL to use your TAILOR/SMITH task, or skip it."),
    ("deck-of-cards", "Deck of Cards", "PAPER", "after_action", "After a SMITH action that made a PAPER work, draw a card."),
    ("doll", "Doll", "PAPER", "instead_of", "Instead of choosing a task, take an opponent's task as yours, with +1 action."),
    ("fan", "Fan", "PAPER", "before_tailor", "Before your TAILOR action, look at the top 3 cards, return 2 and put 1 back."),
    ("lampshade", "Lampshade", "PAPER", "scoring", "At the end, claim CLAY and METAL backorders when ahead or tied in sales."),
    ("pinwheel", "Pinwheel", "PAPER", "morning_night", "At night, return a hand card; if you do, draw a card.", "night"),
    ("plane", "Plane", "PAPER", "after_action", "After a POTTER action that gained a material, move one of your works to the other wing."),
    ("poem", "Poem", "PAPER", "after_work", "After completing a PAPER work, return it and complete the deck's top card for free."),
    ("scroll", "Scroll", "PAPER", "scoring", "Worth 3 extra points at the end."),
    ("sketch", "Sketch", "PAPER", "instead_of", "Instead of choosing a task, use one of your helpers as your task."),
    ("straw", "Straw", "PAPER", "boosters", "Your SMITH needs one support fewer for CLOTH and CLAY works."),
    # STONE (2, MONK)
    ("amulet", "Amulet", "STONE", "after_work", "After completing any work, sell a material from your bench."),
    ("bench", "Bench", "STONE", "scoring", "2 extra points for each of your STONE works."),
    ("daidoro", "Daidoro", "STONE", "morning_night", "In the morning, deal deck cards to the floor until it holds 3.", "morning"),
    ("fountain", "Fountain", "STONE", "before_task", "Before a CLERK task, reveal STONE cards: each is a CLERK helper for it."),
    ("frog", "Frog", "STONE", "after_this", "On completion, if no opponent has fewer works, take an extra turn."),
    ("go-set", "Go Set", "STONE", "continuous", "Your STONE works count in both wings."),
    ("pillar", "Pillar", "STONE", "scoring", "At the end, all sales of your most-sold material are covered."),
    ("statue", "Statue", "STONE", "after_this", "On completion, move 2 floor cards to your craft bench."),
    ("stool", "Stool", "STONE", "after_work", "After completing a STONE, CLAY or METAL work, draw a card."),
    ("tablet", "Tablet", "STONE", "after_this", "On completion, return the floor, or deal cards until it shows STONE and METAL."),
    ("tower", "Tower", "STONE", "obstruction", "An opponent must reveal a matching card to use your CLERK/MONK/POTTER task."),
    # CLOTH (2, TAILOR)
    ("cloak", "Cloak", "CLOTH", "after_work", "After completing a work, return it and complete a METAL hand card for free."),
    ("flag", "Flag", "CLOTH", "before_task", "Before your own task, reveal a matching hand card for +1 action."),
    ("handkerchief", "Handkerchief", "CLOTH", "instead_of", "Instead of the hand limit, put one hand card on the floor."),
    ("kite", "Kite", "CLOTH", "morning_night", "In the morning, give a hand card to a bench and copy a work of its owner.", "morning"),
    ("mask", "Mask", "CLOTH", "obstruction", "Opponents on your task may only take its own action."),
    ("puppet", "Puppet", "CLOTH", "before_tailor", "Before your TAILOR action, return Puppet to swap hands with an opponent."),
    ("quilt", "Quilt", "CLOTH", "scoring", "At the end, PAPER/STONE/CLOTH sales are covered; claim those backorders when tied."),
    ("robe", "Robe", "CLOTH", "boosters", "Your CLERK may sell every bench card of one material."),
    ("socks", "Socks", "CLOTH", "boosters", "Your POTTER may take the deck's top card."),
    ("tapestry", "Tapestry", "CLOTH", "scoring", "1 extra point for each work in its wing."),
    ("umbrella", "Umbrella", "CLOTH", "morning_night", "In the morning, turn the top card to the floor; move a matching helper to sales.", "morning"),
    # CLAY (3, POTTER)
    ("bangle", "Bangle", "CLAY", "obstruction", "Opponents get no helper actions on your task; your STONE helpers are covered."),
    ("bowl", "Bowl", "CLAY", "morning_night", "In the morning, put the deck's top card in your craft bench.", "morning"),
    ("brick", "Brick", "CLAY", "boosters", "Your SMITH may use cards in task slots as supports."),
    ("cup", "Cup", "CLAY", "after_action", "After a PRAYER action, return Cup to end the game."),
    ("dice", "Dice", "CLAY", "before_tailor", "Before your TAILOR action, turn the top card; if its value equals your hand size, complete it."),
    ("figurine", "Figurine", "CLAY", "before_task", "Before an opponent's task, reveal a matching hand card for +1 action."),
    ("haniwa", "Haniwa", "CLAY", "scoring", "3 extra points for each helper of your most-hired material."),
    ("jar", "Jar", "CLAY", "after_this", "On completion, name a material: opponents put theirs from hand into your waiting area."),
    ("teapot", "Teapot", "CLAY", "scoring", "3 extra points for each bench card of your most-collected material."),
    ("vase", "Vase", "CLAY", "after_this", "On completion, move 2 floor cards to your sales."),
    # METAL (3, SMITH)
    ("bell", "Bell", "METAL", "boosters", "Your CLERK may sell the deck's top card."),
    ("chopsticks", "Chopsticks", "METAL", "instead_of", "Instead of discarding your old task, put it in your sales."),
    ("coin", "Coin", "METAL", "scoring", "At the end, each backorder scores twice."),
    ("flute", "Flute", "METAL", "boosters", "Your MONK or POTTER may take an opponent's task or PAPER work."),
    ("gong", "Gong", "METAL", "after_action", "After a PRAYER action, draw 3 cards and put Gong in your waiting area."),
    ("pin", "Pin", "METAL", "morning_night", "In the morning, take one TAILOR action.", "morning"),
    ("ring", "Ring", "METAL", "after_action", "After a CLERK action that sold, take a sale from an opponent with more sales."),
    ("shuriken", "Shuriken", "METAL", "after_this", "On completion, take a work from an opponent with more works."),
    ("sword", "Sword", "METAL", "boosters", "Your MONK/POTTER may take from an opponent with more helpers/bench cards."),
    ("turtle", "Turtle", "METAL", "continuous", "With a work of each of the five materials, you win at once."),
)
# fmt: on

CARDS: dict[str, Card] = {row[0]: Card(*row) for row in _ROWS}
"""Every card by id, in material order (the order of the printed reference, cards.md §2)."""


def base_id(instance: str) -> str:
    """Return the card id of an instance id (``kite#2`` → ``kite``)."""
    return instance.partition("#")[0]


INSTANCES: dict[str, Card] = FaceTable()
"""Every instance id (``kite``, ``kite#2``) → its card; hot loops index it instead of ``card``.
A ``FaceTable``: asked for a peer game's placeholder it raises ``Hidden`` (docs/peer.md §3),
and every module reads this one object, so no face read escapes that check."""
for _id, _card in CARDS.items():
    INSTANCES[_id] = _card
    INSTANCES[f"{_id}#2"] = _card


MATERIAL: dict[str, str] = FaceTable({i: c.material for i, c in INSTANCES.items()})
"""Every instance id → its material (counted in hot loops); a ``FaceTable`` too."""


def faced(cards: list[str]) -> list[str]:
    """The ``cards`` whose faces this state holds, in order: on a referee state (or a
    seat's own) the list itself; on a peer game's shared state, without the placeholders
    (docs/peer-mottainai.md §2). Offers that list hand cards iterate it, so that checking
    a decision reads only the cards it names, which it shows. Without placeholders it is
    ``cards`` itself (not a copy: read it, do not change it), as the referee calls it in
    hot loops."""
    if "?" not in "".join(cards):  # every placeholder holds a "?" (the quickest test)
        return cards
    return [c for c in cards if not is_hidden(c)]


def card(instance: str) -> Card:
    """Return the card of an instance id (``kite`` or ``kite#2``)."""
    return INSTANCES[instance]


def deck_ids(decks: int) -> list[str]:
    """Return every instance id of ``decks`` decks, in catalog order (M-R20: ``kite#2``)."""
    ids = list(CARDS)
    if decks == 2:
        ids += [f"{i}#2" for i in CARDS]
    return ids
