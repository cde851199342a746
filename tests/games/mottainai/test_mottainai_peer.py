"""Mottainai and Wutai Mountain on a peer table (docs/peer-mottainai.md, step 4.2): decks,
hands, waiting areas and face-down tasks are placeholders; a card is opened to its holder
when a view shows it there, to everyone when the rules show it. After every step of whole
random games at 2 to 5 seats, with and without Wutai, every reader's view and log are
exactly the referee's, and the rules read hidden faces only where a ruling says so
(M-R124, M-R130, M-R131). The rules cases of this directory run in both modes too
(``conftest.mot``); the cases here, MOT-20 and WUT-16, are those of the peer game itself.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.peer_harness import PeerRng, peer_run, referee_run
from mottainai_cardkit import use
from mottainai_scenario import Scenario
from wutai_kit import wick_table

from arbiter.core import registry
from arbiter.core.hidden import (
    Fact,
    Facts,
    Hidden,
    Unanswered,
    as_rng,
    is_hidden,
    placeholders,
)
from arbiter.games.mottainai import disclose
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.wutai import WUTAI_DECK, is_om

ENGINE = registry.get("mottainai")
GAMES = [(2, 3, False), (3, 1, False), (4, 2, False), (5, 4, False)]
GAMES += [(2, 5, True), (3, 6, True), (4, 7, True), (5, 8, True)]
READS_THE_TOP = {"umbrella", "dice", "tablet"}
"""Effects that read a card turned up from the deck in the step that turns it (M-R124)."""


def _game(seats: int, seed: int, wutai: bool) -> tuple[Any, Any, Any]:
    options = ENGINE.parse_options({"wutai": "yes"} if wutai else {})
    names = [f"s{i}" for i in range(seats)]
    referee = referee_run(ENGINE, options, names, seed)
    peer, table = peer_run(ENGINE, options, names, referee)
    return referee, peer, table


@pytest.mark.parametrize(("seats", "seed", "wutai"), GAMES)
def test_a_peer_table_shows_everyone_what_the_referee_would(
    seats: int, seed: int, wutai: bool
) -> None:
    referee, peer, table = _game(seats, seed, wutai)
    assert referee.views[-1][None]["result"] is not None, "the game ran to its end"
    assert len(peer.views) == len(referee.views) > 50
    for step, (mine, theirs) in enumerate(zip(peer.views, referee.views, strict=True)):
        assert mine == theirs, f"step {step}: a view differs"
    assert peer.told == referee.told
    assert peer.logs == referee.logs
    # Where the rules read hidden faces: the setup's floor (the start player) and the end
    # in one round each; a card turned up and read at once (Umbrella, Dice, Tablet's deal
    # card by card); Jar's hands in one round. Nowhere else.
    assert table.rounds[0] == 1 and len(table.forced[0]) == seats
    assert table.rounds[-1] <= 1
    for step, rounds in enumerate(table.rounds[1:-1]):
        if rounds:
            _seat, action = referee.steps[step]
            effect = disclose.effect_id(table.state, action["card"])
            assert action["kind"] == "use" and effect in (*READS_THE_TOP, "jar"), action
            assert rounds == 1 or effect == "tablet"
    # A card returned face down is named by its place, never its face (M-R125), and a
    # card everyone saw in the hand is concealed before it goes (M-R127).
    for (_seat, action), public in zip(referee.steps, table.decisions, strict=True):
        if action["kind"] == "return":
            assert is_hidden(public["card"]), public
    assert table.returned, "the game returned cards face down"


def test_MOT_20_1_a_face_down_return_names_a_place_not_a_card() -> None:
    """MOT-20.1 (M-R125): a return's public decision names the card's placeholder; the
    desk labels it "a card"; only the returner's view says which card went back."""
    mot = Scenario(peer=True)
    state = mot.build(hand={"alice": ["kite", "cup", "frog", "bell", "vase", "jar"]})
    mot.play(state, "alice", mot.ret("cup"))
    table = mot.last_table
    (public,) = table.decisions
    assert is_hidden(public["card"]) and table.returned == [public["card"]]
    assert ENGINE.label(public) == "return a card"
    assert "cup" not in str(ENGINE.view(table.private("bob"), "bob"))
    assert ENGINE.view(table.private("alice"), "alice")["deck"]["returned_by_you"] == ["cup"]


def test_MOT_20_4_a_card_everyone_saw_is_concealed_before_it_is_returned() -> None:
    """MOT-20.4 (M-R127): a card shown but kept in hand is an id on the shared state; when
    it is returned face down the seat first hides it again under a new place, so the
    public decision never names it."""
    mot = Scenario(peer=True)
    state = mot.build(hand={"alice": ["kite", "cup", "frog", "bell", "vase", "jar"]})
    shared, slots, holders = mot.conceal(state)
    cup = next(p for p in holders["alice"] if slots[0][int(p.split(".")[1])] == "cup")
    hand = shared.players["alice"].hand
    hand[hand.index(cup)] = "cup"  # as after a reveal: everyone knows it is there
    told = disclose.disclose(shared, "alice", mot.ret("cup"), {})
    assert told.concealed == ("cup",) and told.returned == ()
    # In whole games: such cards are concealed, and no return names a card by its id.
    for seed in range(2, 12):
        referee, peer, table = _game(3, seed, False)
        if table.concealed:
            break
    assert table.concealed and peer.views == referee.views
    for (_seat, action), public in zip(referee.steps, table.decisions, strict=True):
        assert action["kind"] != "return" or is_hidden(public["card"])


@pytest.mark.parametrize(
    ("card", "build", "decision", "holds"),
    [
        (
            "figurine",
            {"gallery": {"alice": ["figurine"]}, "task": {"bob": "bowl"}},
            {"kind": "task", "card": "kite"},
            "cup",
        ),
        ("flag", {"gallery": {"alice": ["flag"]}}, {"kind": "task", "card": "kite"}, "quilt"),
        (
            "fountain",
            {"gallery": {"alice": ["fountain"]}, "task": {"bob": "scroll"}},
            {"kind": "task", "card": "kite"},
            "amulet",
        ),
    ],
)
@pytest.mark.parametrize("present", [True, False])
def test_MOT_20_3_an_effect_offered_on_a_hidden_hand_is_a_fact(
    card: str, build: dict[str, Any], decision: dict[str, Any], holds: str, present: bool
) -> None:
    """MOT-20.3 (M-R126): whether Figurine, Flag or Fountain is offered depends on the
    hand; on the shared state the acting seat answers that as a fact about its hidden
    cards (proven in a peer game), and the table follows the answer as the referee's
    prompt does."""
    mot = Scenario(peer=True)
    hand = ["kite", holds, "bell"] if present else ["kite", "bell"]
    state = mot.build(hand={"alice": hand}, **build)
    mot.play(state, "alice", decision)
    (asked,) = mot.last_table.facts[-1]
    fact, answer = asked
    assert fact.holder == "alice" and answer is present
    assert len(fact.cards) == len(hand) - 1 and all(is_hidden(c) for c in fact.cards)
    assert (mot.prompt(state) == ("alice", "effect")) is present


def test_MOT_20_3_cloak_is_offered_on_a_fact_both_ways() -> None:
    """MOT-20.3 (M-R126), Cloak: with the fact given, the shared state keeps or drops the
    trigger; with no answer it cannot go on (``Unanswered``); the referee reads the hand."""
    mot = Scenario(peer=True)
    # Cloak: completing a work with Cloak in play asks whether the hand holds METAL.
    state = mot.build(
        gallery={"alice": ["cloak"]},
        hand={"alice": ["bell", "ring", "sword", "frog"]},
    )
    shared, _, holders = mot.conceal(state)
    frame = {
        "type": "effects",
        "seat": "alice",
        "moment": "after",
        "ctx": {"action": "smith", "work": "cloak"},
        "used": [],
        "groups": [],
        "closed": False,
    }
    with pytest.raises(Unanswered) as caught:
        dispatch.offered(shared, frame)
    fact = caught.value.fact
    assert fact.holder == "alice" and sorted(fact.cards) == sorted(holders["alice"])
    assert "bell" in fact.faces and "frog" not in fact.faces
    for answer in (True, False):
        with Facts({fact: answer}):
            assert dispatch.offered(shared, frame) is answer
    assert dispatch.offered(state, frame) is True  # the referee reads the hand itself


def test_WUT_16_1_wick_is_offered_on_a_fact_and_returns_with_a_claim() -> None:
    """WUT-16.1 (M-R126, M-R129): WICK is offered when the hand holds an Om-helper-type
    card (a fact); its return names a place and proves the card's type (a claim)."""
    mot = Scenario(peer=True)
    state = wick_table(mot)
    mot.play(state, "alice", mot.NO_TASK)
    facts = mot.last_table.facts[-1]
    assert [(f.holder, answer) for f, answer in facts] == [("alice", True)]
    mot.play(state, "alice", use("wick", target="doll"))
    table = mot.last_table
    (public,) = table.decisions
    assert is_hidden(public["target"]) and table.kept == [public["target"]]
    claims = ENGINE.claims(table.state, "alice", public)
    assert "doll" in claims[public["target"]] and "kite" not in claims[public["target"]]


def test_WUT_16_3_wutai_placeholders_count_as_wutai_cards() -> None:
    """WUT-16.3 (M-R133): a card's back is public: a placeholder of the Wutai deck is a
    Wutai card, and the setup makes the Wutai deck second, so it is always ``d1``."""
    assert is_om(f"?{WUTAI_DECK}.0") and not is_om("?d0.0")
    options = ENGINE.parse_options({"wutai": "yes"})
    with pytest.raises(Hidden) as floor:  # the start player reads the floor (MOT-20.9)
        ENGINE.setup(options, ["a", "b", "c"], as_rng(PeerRng()))
    first = PeerRng()
    with pytest.raises(Hidden):
        ENGINE.setup(options, ["a", "b", "c"], as_rng(first))
    opened = {p: first.decks["d0"][int(p.split(".")[1])] for p in floor.value.placeholders}
    rng = PeerRng(opened)
    state, _ = ENGINE.setup(options, ["a", "b", "c"], as_rng(rng))
    assert list(rng.decks) == ["d0", WUTAI_DECK]
    assert all(is_om(c) for c in rng.decks[WUTAI_DECK])
    assert not any(is_om(c) for c in rng.decks["d0"])
    hand = state.players["a"].hand
    assert sum(1 for c in hand if is_om(c)) == 1  # M-R101, counted on placeholders
    assert ENGINE.view(state, None)["players"]["a"]["hand_wutai"] == 1


def test_MOT_20_9_the_start_player_reads_the_floor_in_one_round() -> None:
    """MOT-20.9 (M-R124): the setup opens the whole floor at once to find the start
    player: one round, not one per card; nothing else is read."""
    options = ENGINE.parse_options({})
    rng = PeerRng()
    with pytest.raises(Hidden) as caught:
        ENGINE.setup(options, ["a", "b", "c", "d", "e"], as_rng(rng))
    assert len(caught.value.placeholders) == 5


def test_MOT_20_11_a_face_down_task_flips_with_no_round() -> None:
    """MOT-20.11 (M-R134, M-R14): every face-down task but the start player's is shared
    ahead by every seat except its owner and the owner's predecessor, which lays it open
    with the decision ending its turn and sends its share then; the owner's rides on its
    first decision. Until the flip, no seat holds every share but its own; the flip costs
    no round of shares."""
    from helpers.peer_play import new_table, play

    table = new_table("mottainai", 4, 3)
    game = table.game
    flips: list[tuple[str, str]] = []
    early: list[str] = []
    receive = game.receive

    def watch(message: dict[str, Any]) -> None:
        before = len(game.history)
        receive(message)
        for step, events in game.history[before:]:
            for event in events:
                if event.kind == "old-task" and event.data["face_down"]:
                    flips.append((event.data["seat"], step.seat or "setup"))
                    owed = game.waiting.get(event.data["seat"])
                    if step.seat is not None:
                        assert owed is not None and owed.kind == "decision", "no round"
        laid_open = placeholders(ENGINE.view(game.state, None)) if game.state else set()
        for card, withheld in game.preshared.items():
            if card in game.opened or card in laid_open:
                continue
            sent = set(game.shares.get(card, {}))
            assert not sent & set(withheld), f"{card}: a withheld share went out early"
            for seat in game.seats:
                if set(game.seats) - {seat} <= sent:
                    early.append(f"{seat} could open {card}")

    game.receive = watch  # type: ignore[method-assign]
    opened = lambda: all(c in game.opened for c in game.preshared)  # noqa: E731
    play(table, 3, until=lambda t, _s: len(flips) == 4 and opened())
    assert early == []
    order = game.state.clockwise_from(game.state.start)
    assert [owner for owner, _ in flips] == order
    for owner, by in flips[1:]:
        assert by == order[order.index(owner) - 1], "its predecessor laid it open"
    assert len(game.preshared) == 3, "the start player's was opened at the deal"


def test_a_view_of_a_shared_state_never_raises() -> None:
    """A card just turned up into a temple is a placeholder until the views open it: the
    view of that state serves to find it and must not read its face."""
    mot = Scenario(peer=True)
    state = mot.build(
        helpers={"alice": ["kite"]}, sales={"alice": ["cup"]}, gallery={"alice": ["vase"]}
    )
    shared, _, _ = mot.conceal(state)
    shared.players["alice"].helpers.append("?d0.0")
    shared.players["alice"].sales.append("?d0.1")
    for reader in (None, "alice", "bob"):
        assert {"?d0.0", "?d0.1"} <= placeholders(ENGINE.view(shared, reader))


def test_facts_are_keyed_by_holder_cards_and_faces() -> None:
    """A fact answered for one hand is not an answer for another (docs/peer-mottainai.md
    §3.4): the key is the holder, its placeholders and the faces asked about."""
    one = Fact("alice", ("?d0.1", "?d0.2"), ("bell", "ring"))
    other = Fact("bob", ("?d0.1", "?d0.2"), ("bell", "ring"))
    with Facts({one: True}) as facts:
        assert facts.answer(one) is True
        with pytest.raises(Unanswered):
            facts.answer(other)
    assert facts.asked == [one, other]


@pytest.mark.slow
def test_many_peer_games_show_what_the_referee_would() -> None:
    """Forty more games (5 per seat count, with and without Wutai), so that the rarer
    cards come up: Jar opens the opponents' hands in one round, Tablet one round per card
    it deals (M-R130), Puppet's hands change sides as placeholders."""
    seen: set[str] = set()
    for wutai in (False, True):
        for seats in (2, 3, 4, 5):
            for seed in range(20, 25):
                referee, peer, table = _game(seats, seed + 10 * seats, wutai)
                assert peer.views == referee.views, (seats, seed, wutai)
                assert peer.told == referee.told and peer.logs == referee.logs
                for step, rounds in enumerate(table.rounds[1:-1]):
                    action = referee.steps[step][1]
                    if action["kind"] == "use":
                        seen.add(disclose.effect_id(table.state, action["card"]))
                    if rounds:
                        effect = disclose.effect_id(table.state, action["card"])
                        assert effect in (*READS_THE_TOP, "jar"), action
                        assert rounds == 1 or effect == "tablet"
    assert {"jar", "umbrella", "puppet"} <= seen


# -- MOT-20.12–14: card order where a hand changes places (Mottainai 0.4.0) -----------------


def test_MOT_20_12_jar_shows_and_takes_cards_in_card_order(mot: Any) -> None:
    """MOT-20.12 (M-R38, 0.4.0): Jar lists each opponent's hand in card order, not the
    order its cards came in (which would tell everyone when each was drawn), and its take
    joins the waiting area in that order; both modes (the ``mot`` fixture)."""
    state = mot.build(
        mot.SEATS3,
        helpers={"alice": ["coin"]},
        hand={
            "alice": ["bell", "jar", "dice", "figurine"],
            "bob": ["kite", "crane", "bowl", "vase"],
            "carol": ["fan", "cup"],
        },
    )
    mot.play(state, "alice", mot.task("bell"))
    mot.play(state, "alice", mot.smith("jar", ["dice", "figurine"]))
    events = mot.play(state, "alice", use("jar", material="CLAY"))
    jar = next(e for e in events if e.kind == "fx" and e.data["fx"] == "jar")
    assert jar.data["hands"] == {"bob": ["bowl", "crane", "kite", "vase"], "carol": ["cup", "fan"]}
    assert state.players["alice"].waiting == ["bowl", "vase", "cup"]
    assert state.players["bob"].hand == ["kite", "crane"]  # what stays keeps its order


def test_MOT_20_13_puppet_passes_each_hand_in_card_order(mot: Any) -> None:
    """MOT-20.13 (M-R60, M-R128, 0.4.0): the target's new hand and the cards reaching the
    user's waiting area come in card order; the target learns nothing of when the user
    drew each card, and a game with no referee shows the same."""
    hands = {"alice": ["quilt", "jar", "fan"], "bob": ["gong", "bell"]}
    state = mot.build(gallery={"alice": ["puppet"]}, hand=hands)
    mot.play(state, "alice", mot.task("quilt"))
    mot.play(state, "alice", mot.TAILOR)
    mot.play(state, "alice", use("puppet", target="bob"))
    assert state.players["bob"].hand == ["fan", "jar"]
    assert state.players["alice"].waiting == ["bell", "gong"]


def test_MOT_20_14_the_night_line_names_the_cards_in_card_order(mot: Any) -> None:
    """MOT-20.14 (M-R132, 0.4.0): the drawer's Night line lists its cards in card order;
    its view still shows its hand in the order the cards came."""
    state = mot.build(hand={"alice": ["quilt"]}, deck=["vase", "bell", "kite", "cup", "fan"])
    mot.play(state, "alice", mot.task("quilt"))
    mot.play(state, "alice", mot.TAILOR)
    events = mot.play(state, "alice", mot.DONE)  # no return: the TAILOR draws up to 5
    night = next(e for e in events if e.kind == "night")
    assert night.data["cards"] == ["vase", "bell", "kite", "cup", "fan"]
    line = next(x for x in mot.lines(events, "alice") if x.startswith("Night"))
    assert line == "Night: alice takes Bell, Cup, Fan, Kite, Vase from the waiting area into hand."
    assert mot.engine.view(state, "alice")["players"]["alice"]["hand"] == night.data["cards"]
