"""The public state of a peer game (docs/peer.md §3, §5): what every machine computes from
the same messages, and what it waits for next.

It runs the normal engine on the **shared state** (placeholders for every card not
everyone knows) and keeps, beside it, the encrypted decks, every seat's per-game key, the
decryption shares sent so far, the cards opened to everyone (``opened``) and to one seat
alone (``told``). After each message it works out what the game waits for (``owed``):

1. every seat's key, with its proof of knowledge;
2. the step in progress (the setup, or a decision): it is applied with a ``PeerRng``; each
   deck it makes is shuffled by every seat in seat order; a face a rule reads (``Hidden``)
   is opened to everyone, and the step applied again from the state before it;
3. the openings the views ask for (§3.3): placeholders in the public view to everyone,
   those in a seat's own view to that seat; each needs the share of every seat (of every
   other seat, for a card opened to one);
4. the decision of the prompted seat.

Messages come in **rounds**: a round is every seat owed something when it began, each
answering once against the same head; their messages are then taken in seat order (the
round entry). A message is checked whole when it arrives; a false proof, a share of the
wrong card, a decision the rules refuse is refused with a one-line reason naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arbiter.core import schemas
from arbiter.core.canonical import digest
from arbiter.core.engine import Engine, Event
from arbiter.core.errors import ArbiterError, Tampered
from arbiter.core.hidden import (
    PLACEHOLDER,
    Fact,
    Facts,
    Hidden,
    PeerRng,
    Unanswered,
    as_rng,
    placeholder,
    placeholders,
    private_state,
    substitute,
)
from arbiter.core.peer import dleq, elgamal, group, oneof, schnorr, shuffle
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context
from arbiter.peer import escrow, wire
from arbiter.peer.decks import Deck
from arbiter.peer.hand_moves import HandMoves, Pass, _cards, _slot_deck

Action = dict[str, Any]
KEY, SHUFFLE, SHARES, DECISION, FACTS = "key", "shuffle", "shares", "decision", "facts"
PASSES = "passes"
HEAD = frozenset({"format", "game", "seat", "round", "after", "signature"})
FIELDS = {
    KEY: frozenset({"key", "proof", "escrow"}),
    SHUFFLE: frozenset({"shuffles"}),
    SHARES: frozenset({"shares"}),
    DECISION: frozenset(
        {
            "decision",
            "shares",
            "rerandomise",
            "openings",
            "claims",
            "ahead",
            "returns",
            "facts",
            "passes",
            "conceal",
        }
    ),
    FACTS: frozenset({"facts"}),
    PASSES: frozenset({"passes"}),
}
"""The fields a message may carry beside its head, by what its seat owes."""


@dataclass(frozen=True)
class Owed:
    """What one seat owes the game now: its key, its shuffle of ``decks`` (each deck a
    step made, in one message), its shares of ``cards``, or a decision."""

    seat: str
    kind: str
    decks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    fact: Fact | None = None
    """``FACTS``: the question about its hidden cards the step in progress asks."""

    def describe(self) -> str:
        if self.kind == KEY:
            return f"{self.seat}'s per-game key"
        if self.kind == SHUFFLE:
            return f"{self.seat}'s shuffle of deck(s) {', '.join(self.decks)}"
        if self.kind == SHARES:
            return f"{self.seat}'s shares of {len(self.cards)} card(s)"
        if self.kind == FACTS:
            return f"{self.seat}'s answer about its hidden cards"
        if self.kind == PASSES:
            return f"{self.seat}'s {len(self.cards)} card(s) passed to another seat"
        return f"{self.seat}'s decision"


@dataclass
class Stats:
    """Counted as the game goes: rounds by what they wait for, and decisions."""

    rounds: dict[str, int] = field(
        default_factory=lambda: {KEY: 0, SHUFFLE: 0, SHARES: 0, DECISION: 0, FACTS: 0, PASSES: 0}
    )
    messages: int = 0
    decisions: int = 0


@dataclass
class Ruling:
    """A decision message as its check found it, applied as it is when its round closes
    (so nothing is proven twice)."""

    action: Action
    riding: dict[str, tuple[bytes, bytes]]
    openings: dict[str, tuple[bytes, bytes]]
    ahead: dict[str, tuple[bytes, bytes]]
    opened: dict[str, str]
    held: dict[str, tuple[str, Ciphertext]]
    mixed: tuple[str, list[str], list[Ciphertext]] | None
    state: Any
    returns: dict[str, Ciphertext] = field(default_factory=dict)
    facts: dict[Fact, bool] = field(default_factory=dict)
    passes: list[Pass] = field(default_factory=list)
    later: list[tuple[str, str, list[str]]] = field(default_factory=list)
    concealed: dict[str, str] = field(default_factory=dict)


@dataclass
class Step:
    """The step in progress: the setup (no seat), or a seat's public decision."""

    seat: str | None
    action: Action | None
    mixed: tuple[str, list[str], list[Ciphertext]] | None = None
    """A re-randomisation the decision's seat made first: its cards and their new
    ciphertexts (``arbiter verify`` decrypts them to follow each placeholder's card)."""
    returns: dict[str, Ciphertext] = field(default_factory=dict)
    """The held cards the decision puts face down, with their new joint ciphertexts."""
    facts: dict[Fact, bool] = field(default_factory=dict)
    """The answers about the seat's hidden cards the step asks (``core.hidden.Facts``)."""
    renamed: dict[str, str] = field(default_factory=dict)
    """Once committed: each returned card's placeholder → its new place in its deck."""
    passes: list[Pass] = field(default_factory=list)
    """The cards the decision moved to another seat: the decision's seat's own, then
    (taken after the step) the other seats' (``arbiter verify`` follows their mixes)."""
    later: list[tuple[str, str, list[str]]] = field(default_factory=list)
    """Cards held by other seats that the step moves: (holder, recipient, cards), each
    holder passing them in the round after the step."""


class PeerGame(HandMoves):
    def __init__(
        self,
        engine: Engine,
        options: Mapping[str, Any],
        seats: list[str],
        game: str,
        manifest: str,
        remedy: str | None = None,
        notary: bool = False,
    ) -> None:
        self.engine = engine
        self.remedy = remedy
        """The terms' remedy for a silent seat: None, ``forfeit`` or ``escrow`` (§7)."""
        self.notary = notary
        self.escrow: dict[str, tuple[list[bytes], dict[str, Any]]] = {}
        """Under escrow: each seat's Feldman commitments and its key message's field."""
        self.out: dict[str, int] = {}
        """The seats timed out, with the round each missed."""
        self.forfeit: str | None = None
        """The seat whose timeout ended the game."""
        self.stand_ins: dict[str, Any] = {}
        """The seats a bot now plays from their rebuilt secret (``peer.standin``)."""
        self.options = dict(options)
        self.seats = list(seats)
        self.game = game
        self.manifest = manifest
        self.keys: dict[str, bytes] = {}
        self.joint = group.IDENTITY
        self.decks: dict[str, Deck] = {}
        self.made = 0
        """Decks made by committed steps (the next step's ``PeerRng`` numbers from here)."""
        self.state: Any = None
        self.step: Step | None = Step(None, None)
        self.opened: dict[str, str] = {}
        self.told: dict[str, set[str]] = {seat: set() for seat in seats}
        self.shares: dict[str, dict[str, bytes]] = {}
        self.held: dict[str, tuple[str, Ciphertext]] = {}
        """Each card opened to one seat alone: that seat, and the card's ciphertext with
        every other seat's share taken off (so under the holder's key alone: only its
        share opens it, and it may re-randomise it, docs/peer.md §4.3)."""
        self.history: list[tuple[Step, list[Event]]] = []
        """Every committed step with its events (narrated once its openings are in)."""
        self.round = 0
        self.head = manifest
        """The chain's head: game.json's digest, then each round entry's (its messages in
        seat order, as signed). Every message names the head it was made against, so any
        change to the history breaks every later message."""
        self.waiting: dict[str, Owed] = {}
        """The round in progress: what each of its seats owes."""
        self.answered: dict[str, dict[str, Any]] = {}
        self.checked: dict[str, Any] = {}
        """What checking each answered message produced (a shuffle's decks, a decision's
        ruling), which taking it then uses."""
        self.stats = Stats()
        self.settled = 0
        """How many committed steps have every opening that blocks in: the public ones and
        the next decider's (docs/peer-mottainai.md §3.5)."""
        self.states: list[Any] = []
        """The shared state after each settled step: a seat whose own openings came later
        reads its views of the steps between from these."""
        self.asked: dict[str, set[str]] = {seat: set() for seat in seats}
        """The openings to one seat under way: cards its view shows hidden that some other
        seat has not shared yet. They wait for shares riding on the next message of each
        seat owing one, and block only when the seat must read them (it decides, answers
        a fact, passes its hand, or the game ends). Once asked, an opening stays that
        seat's until it is complete: a share is released for one recipient (§3.7)."""
        self.preshared: dict[str, tuple[str, ...]] = {}
        """Hidden cards certain to be opened to everyone later (``Engine.preshares``), with
        the seats that hold back their share until then; every other seat sends its share
        with its next message (docs/peer-mottainai.md §3.6)."""
        self.ready: dict[str, int] = dict.fromkeys(seats, 0)
        """How many settled steps each seat can read: every opening to it of those steps in."""
        self.on_settle: list[Callable[[], None]] = []
        """Called each time a step settles or a seat's openings come in (tests and desks
        read views then: ``settled`` and ``ready`` say which)."""
        self.before_mix: list[Callable[[str], None]] = []
        """Called with a seat before its re-randomisation is taken (its log is narrated up
        to there with what it knew then)."""
        self.arrived: dict[str, int] = {}
        """The round each card opened to one seat arrived in its hand (-1 once its holder
        re-randomised the hand)."""
        self.passed: list[Pass] = []
        """Every hand passed so far, in order (its recipient reads its ranks)."""
        self.passing: list[tuple[str, str, list[str]]] = []
        """Cards another seat's decision moved out of their holder's hand, still to be
        passed by that holder: (holder, recipient, cards in the order they stood)."""
        self.returned: dict[str, tuple[str, str]] = {}
        """Each card returned face down (docs/peer-mottainai.md §3.2), by its new place in
        its deck: the seat that returned it and its placeholder in that seat's hand (whose
        held ciphertext that seat alone can decrypt: it knows the card, nobody else)."""
        self._next_round()

    # -- what the game waits for -----------------------------------------------------
    @property
    def over(self) -> bool:
        return not self.waiting

    def holders(self, seat: str) -> list[str]:
        """Who holds an escrow share of ``seat``'s secret (index = position + 1)."""
        return escrow.holders(self.seats, seat, self.notary)

    def can_rebuild(self, seat: str) -> bool:
        """Whether escrow can bring ``seat`` back as a bot: the terms say so, it dealt its
        escrow with its key, and no holder is itself out (its share would be lost)."""
        return (
            self.remedy == "escrow"
            and seat in self.escrow
            and not any(h in self.out for h in self.holders(seat))
        )

    def timeout(self, seat: str, bot: Any = None) -> None:
        """``seat`` missed the round in progress, and a complete timeout says so (§7): the
        game ends with it forfeiting, or ``bot`` (a ``StandIn`` holding the secret its
        holders' escrow shares rebuilt, ``standin.rebuild``) answers for it from now on."""
        if self.owed(seat) is None:
            raise Tampered(f"{seat} owes nothing in round {self.round}: it cannot time out")
        if bot is None:
            self.out[seat] = self.round
            self.forfeit = seat
            self.waiting, self.answered, self.checked = {}, {}, {}
            return
        if bot.seat != seat or group.base(bot.secret) != self.keys[seat]:
            raise Tampered(f"the bot for {seat} does not hold {seat}'s secret")
        self.out[seat] = self.round
        self.stand_ins[seat] = bot
        self._fill()

    def owed(self, seat: str) -> Owed | None:
        """What ``seat`` owes in the round in progress (None: nothing, or already sent)."""
        return None if seat in self.answered else self.waiting.get(seat)

    def context(self, seat: str) -> Context:
        return Context(self.game, self.manifest, seat, self.round)

    def cipher(self, card: str) -> Ciphertext:
        """The ciphertext a share of ``card`` answers: its deck slot's, or for a card
        opened to one seat, the one it holds."""
        if card in self.held:
            return self.held[card][1]
        deck, slot = self.locate(card)
        return deck.slot(slot)

    def owners(self, card: str) -> list[str]:
        """The seats whose shares open ``card``: its holder's, or every seat's."""
        return [self.held[card][0]] if card in self.held else list(self.seats)

    def _open(self, card: str, shares: Mapping[str, bytes]) -> str:
        deck, _ = self.locate(card)
        return deck.points.card(
            elgamal.open_with(self.cipher(card), [shares[s] for s in self.owners(card)])
        )

    def zone(
        self,
        seat: str,
        state: Any = None,
        held: Mapping[str, tuple[str, Ciphertext]] | None = None,
    ) -> list[str]:
        """The cards ``seat`` holds hidden in its own view (its hand): what it may
        re-randomise. Cards it holds hidden outside every view (a card buried at once)
        stay where they are, bound by the claim they were played with. (``state`` and
        ``held``: the game's, or as a decision's concealment makes them.)"""
        held = self.held if held is None else held
        shown = placeholders(self.engine.view(self.state if state is None else state, seat))
        return sorted(
            (c for c in shown if held.get(c, ("",))[0] == seat and c not in self.opened),
            key=_slot_order,
        )

    def _next_round(self) -> None:
        owed = self._advance()
        self.waiting = {o.seat: o for o in owed}
        self.answered = {}
        self.checked = {}
        if owed:
            self.stats.rounds[owed[0].kind] += 1

    def _advance(self) -> list[Owed]:
        """Move the game on as far as the messages in allow; return what it waits for."""
        while True:
            if len(self.keys) < len(self.seats):
                return [Owed(seat, KEY) for seat in self.seats if seat not in self.keys]
            if self.step is not None:
                owed = self._attempt(self.step)
                if owed is None:
                    continue
                return owed
            if self.passing:
                holders = list(dict.fromkeys(h for h, _, _ in self.passing))
                # A holder passes cards it holds: its own openings first (§3.7).
                owed = self._needs(holders)
                if owed:
                    return owed
                self._ready()
                return [
                    Owed(
                        h,
                        PASSES,
                        cards=tuple(c for hh, _, cs in self.passing if hh == h for c in cs),
                    )
                    for h in holders
                ]
            owed = self._needs()
            if owed:
                return self._ride(owed)
            self._settle()
            prompt = self.engine.prompt(self.state)
            if prompt is None:
                return []
            # Its shares of openings to other seats, and its pre-shares, ride on its
            # decision (§3.5, §3.6): nothing is left to open, so this only counts them.
            owing = self._collect(set())[prompt.seat]
            return [Owed(prompt.seat, DECISION, cards=tuple(sorted(owing, key=_slot_order)))]

    def _settle(self) -> None:
        """The last step's blocking openings are in: everyone reads it, each seat as far as
        its own openings are in too."""
        if self.settled < len(self.history):
            assert self.settled == len(self.history) - 1, "steps settle one at a time"
            self.states.append(self.state)
            self.settled = len(self.history)
            self._ready(changed=True)
        else:
            self._ready()

    def _ready(self, changed: bool = False) -> None:
        """Each seat with no opening to it under way reads every settled step."""
        for seat in self.seats:
            if not self.asked[seat] and self.ready[seat] < self.settled:
                self.ready[seat] = self.settled
                changed = True
        if changed:
            for hook in self.on_settle:
                hook()

    def _ride(self, owed: list[Owed]) -> list[Owed]:
        """Shares owed by the seat that decides next alone ride on its decision (docs/peer.md
        §5.2): it opens those cards for itself with its own share, decides, and sends the
        share with the decision, so nobody waits a round for it."""
        if len(owed) != 1:
            return owed
        try:
            prompt = self.engine.prompt(self.state)
        except Hidden:
            return owed
        if prompt is None or prompt.seat != owed[0].seat:
            return owed
        return [Owed(prompt.seat, DECISION, cards=owed[0].cards)]

    def _attempt(self, step: Step) -> list[Owed] | None:
        """Apply the step in progress. Return what it waits for, or None once committed."""
        rng = PeerRng(self.opened, self.made)
        hidden: tuple[str, ...] = ()
        try:
            with Facts(step.facts):
                if step.seat is None:
                    state, events = self.engine.setup(self.options, self.seats, as_rng(rng))
                else:
                    assert step.action is not None
                    state = self.engine.copy(self.state)
                    events = self.engine.apply(state, step.seat, step.action, as_rng(rng))
        except Unanswered as question:
            # A question about a seat's hidden cards its decision did not answer (it came
            # after an opening the decision could not foresee): that seat answers it, once
            # every card of its hand is opened to it.
            holder = question.fact.holder
            missing = self._collect(set())
            if self.asked[holder]:
                return self._owed(missing, set(self.asked[holder]))
            return [Owed(holder, FACTS, fact=question.fact)]
        except Hidden as raised:
            hidden = raised.placeholders
        for deck_id, cards in rng.decks.items():
            known = self.decks.get(deck_id)
            if known is None:
                self.decks[deck_id] = Deck.start(deck_id, self.engine.info.name, cards, self.joint)
            elif known.points.cards != cards:
                raise Tampered(f"the step made deck {deck_id} again with other cards")
        unshuffled = [d for d in rng.decks if self.decks[d].shuffled < len(self.seats)]
        if unshuffled:
            # The decks a step made are shuffled together: one message per seat.
            turn = min(self.decks[d].shuffled for d in unshuffled)
            decks = tuple(d for d in unshuffled if self.decks[d].shuffled == turn)
            return [Owed(self.seats[turn], SHUFFLE, decks)]
        if hidden:
            owed = self._owed(self._collect(set(hidden)), set(hidden))
            return owed or None
        state = private_state(self.engine, state, self.opened)
        if step.returns:
            assert step.seat is not None
            state, step.renamed = self._put_back(step.seat, step.returns, state)
        for moved in step.passes:
            self._hand_over(moved)
        self.passing = list(step.later)
        self.state = state
        for card, withheld in self.engine.preshares(state).items():
            self.preshared.setdefault(card, tuple(withheld))
        self.made += len(rng.decks)
        self.history.append((step, events))
        self.step = None
        return None

    def _needs(self, readers: list[str] | None = None) -> list[Owed]:
        """The openings the views ask for (docs/peer.md §3.3) that block now, as the shares
        each seat owes for them: the public ones, and those to ``readers`` (None: to the
        seat that decides next, or to every seat once the game is over). A seat owing one
        sends every share it owes in the same message; the others' openings to a seat
        wait for shares riding on their next messages (docs/peer-mottainai.md §3.5)."""
        public = placeholders(self.engine.view(self.state, None)) - set(self.opened)
        for seat in self.seats:
            shown = placeholders(self.engine.view(self.state, seat))
            asked = shown - set(self.opened) - self.told[seat] - public
            self.asked[seat] |= asked - self.remembered(seat)
        missing = self._collect(public)
        if readers is None:
            try:
                prompt = self.engine.prompt(self.state)
            except Hidden:  # the prompt reads a public card still to open: that first
                prompt, readers = None, []
            if readers is None:
                readers = list(self.seats) if prompt is None else [prompt.seat]
        blocking = public | {card for seat in readers for card in self.asked[seat]}
        return self._owed(missing, blocking)

    def _owed(self, missing: dict[str, set[str]], blocking: set[str]) -> list[Owed]:
        """A round of shares from each seat owing one of ``blocking``, each sending every
        share it owes."""
        return [
            Owed(seat, SHARES, cards=tuple(sorted(missing[seat], key=_slot_order)))
            for seat in self.seats
            if missing[seat] & blocking
        ]

    def _early(self, seat: str) -> set[str]:
        """The pre-shares ``seat`` still owes."""
        return {
            card
            for card, withheld in self.preshared.items()
            if seat not in withheld
            and card not in self.opened
            and seat not in self.shares.get(card, {})
        }

    def _collect(self, public: set[str]) -> dict[str, set[str]]:
        """Open what every share is in for (``public`` to everyone, the openings under way
        to their seat); return the shares still owed, per seat."""
        missing: dict[str, set[str]] = {seat: set() for seat in self.seats}
        for card in sorted(public):
            have = self.shares.get(card, {})
            lacking = [s for s in self.owners(card) if s not in have]
            if lacking:
                for s in lacking:
                    missing[s].add(card)
                continue
            self.opened[card] = self._open(card, have)
        if public & set(self.opened) and self.state is not None:
            self.state = private_state(self.engine, self.state, self.opened)
        for seat in self.seats:
            self.asked[seat] -= set(self.opened)  # a rule read it meanwhile (Jar, the end)
            for card in sorted(self.asked[seat], key=_slot_order):
                have = self.shares.get(card, {})
                lacking = [s for s in self.seats if s != seat and s not in have]
                if card in self.held:
                    raise Tampered(
                        f"{card} is held by {self.held[card][0]}: it cannot pass to {seat}"
                    )
                if lacking:
                    for s in lacking:
                        missing[s].add(card)
                    continue
                self.asked[seat].discard(card)
                self.told[seat].add(card)
                self.arrived[card] = self.round
                deck, slot = self.locate(card)
                self.held[card] = (
                    seat,
                    deck.without(slot, {s: have[s] for s in self.seats if s != seat}),
                )
        for seat in self.seats:
            missing[seat] |= self._early(seat)
        return missing

    # -- messages ------------------------------------------------------------------------
    def receive(self, message: dict[str, Any]) -> None:
        """Check ``message`` whole against the round in progress and take it; refuse it
        (``Tampered``, the game unchanged) with a reason naming it."""
        if isinstance(message, dict) and message.get("seat") in self.stand_ins:
            raise wire.refuse(message, "a bot plays this seat since it timed out")
        self._receive(message)
        self._fill()

    def _fill(self) -> None:
        """Let the bots of timed-out seats answer what they owe (the same messages on
        every machine: they draw from their rebuilt secret and the head, ``StandIn``)."""
        while True:
            due = [s for s in self.seats if s in self.stand_ins and self.owed(s) is not None]
            if not due:
                return
            self._receive(self.stand_ins[due[0]].compose())

    def _receive(self, message: dict[str, Any]) -> None:
        if not isinstance(message, dict):
            raise Tampered("a peer message is a JSON object")
        seat = message.get("seat")
        if message.get("format") != wire.FORMAT or message.get("game") != self.game:
            raise wire.refuse(message, f"not a message of peer game {self.game}")
        try:
            schemas.validate("peer-move", message, "its fields")
        except ArbiterError as error:
            raise wire.refuse(message, str(error)) from None
        if message.get("round") != self.round:
            raise wire.refuse(
                message,
                f"it answers round {message.get('round')}, the game is at round {self.round}",
            )
        if not isinstance(seat, str) or seat not in self.waiting:
            raise wire.refuse(message, "this seat owes nothing in this round")
        if seat in self.answered:
            raise wire.refuse(message, "this seat already answered this round")
        if message.get("after") != self.head:
            raise wire.refuse(
                message, "it was made after another history of this game (its head differs)"
            )
        owed = self.waiting[seat]
        stray = sorted(set(message) - HEAD - FIELDS[owed.kind])
        if stray:
            raise wire.refuse(message, f"{owed.describe()} carries no {', '.join(stray)}")
        try:
            {KEY: self._check_key, SHUFFLE: self._check_shuffle, SHARES: self._check_shares,
             DECISION: self._check_decision, FACTS: self._check_answer,
             PASSES: self._check_pass}[owed.kind](owed, message)  # fmt: skip
        except ArbiterError as error:
            raise wire.refuse(message, str(error)) from None
        self.answered[seat] = message
        self.stats.messages += 1
        if len(self.answered) == len(self.waiting):
            entry = [self.answered[s] for s in self.seats if s in self.answered]
            for seat_ in self.seats:
                if seat_ in self.answered:
                    self._take(self.waiting[seat_], self.answered[seat_])
            # The round entry: the head every message of the next round names (§5.2).
            self.head = digest({"after": self.head, "round": self.round, "messages": entry})
            self.round += 1
            self._next_round()

    def _check_key(self, owed: Owed, message: dict[str, Any]) -> None:
        key = wire.unhex(message.get("key"), "the key")
        schnorr.verify(
            key, wire.unhex(message.get("proof"), "the key's proof"), self.context(owed.seat)
        )
        if key in self.keys.values() or key in (m.get("key") for m in self.answered.values()):
            raise Tampered("this per-game key is another seat's")
        if self.remedy == "escrow":
            names = self.holders(owed.seat)
            commitments = escrow.check_public(message.get("escrow"), key, names)
            self.checked[owed.seat] = commitments
        elif "escrow" in message:
            raise Tampered("the terms name no escrow: its key carries none")

    def _check_shuffle(self, owed: Owed, message: dict[str, Any]) -> None:
        sent = message.get("shuffles")
        if not isinstance(sent, list) or [
            s.get("deck") if isinstance(s, dict) else None for s in sent
        ] != list(owed.decks):
            raise Tampered(f"it must shuffle deck(s) {', '.join(owed.decks)}, in that order")
        decks = []
        for item in sent:
            deck = self.decks[item["deck"]]
            out = _cards(item.get("cards"), len(deck.cipher))
            proof = shuffle.Proof.from_bytes(
                wire.unhex(item.get("proof"), "the shuffle proof"), len(out)
            )
            # Each deck's proof is bound to its deck id through its statement (the deck in).
            shuffle.verify(deck.cipher, out, self.joint, proof, self.context(owed.seat))
            decks.append((deck, out))
        self.checked[owed.seat] = decks

    def _check_answer(self, owed: Owed, message: dict[str, Any]) -> None:
        """The one fact the step in progress asks of this seat, with its proof."""
        facts = self._check_facts(
            owed.seat, message.get("facts"), self.held, self.opened, self.context(owed.seat)
        )
        if list(facts) != [owed.fact]:
            raise Tampered("it must answer exactly the fact the step asks")
        self.checked[owed.seat] = facts

    def _check_pass(self, owed: Owed, message: dict[str, Any]) -> None:
        """The cards another seat's decision moved out of this seat's hand."""
        groups = [g for g in self.passing if g[0] == owed.seat]
        self.checked[owed.seat] = self._passes(
            owed.seat, message.get("passes"), groups, self.held, self.context(owed.seat)
        )

    def _check_shares(self, owed: Owed, message: dict[str, Any]) -> None:
        sent = _shares(message.get("shares"))
        if sorted(sent, key=_slot_order) != list(owed.cards):
            raise Tampered(f"it shares {len(sent)} card(s), not the {len(owed.cards)} owed")
        for card, (share, proof) in sent.items():
            if owed.seat not in self.owners(card):
                raise Tampered(f"{card} is held by another seat")
            dleq.verify(
                self.keys[owed.seat], self.cipher(card)[0], share, proof, self.context(owed.seat)
            )

    def _check_decision(self, owed: Owed, message: dict[str, Any]) -> None:
        """The shares riding on it first, then the re-randomisation, the openings, and the
        claims and the decision against the state they make."""
        seat = owed.seat
        action = message.get("decision")
        if not isinstance(action, dict):
            raise Tampered("it carries no decision")
        context = self.context(seat)
        riding = _shares(message.get("shares"))
        if sorted(riding, key=_slot_order) != list(owed.cards):
            raise Tampered(f"it shares {len(riding)} card(s), not the {len(owed.cards)} owed")
        opened = dict(self.opened)
        public = placeholders(self.engine.view(self.state, None)) if riding else set()
        for card, (share, proof) in riding.items():
            if seat not in self.owners(card):
                raise Tampered(f"{card} is held by another seat")
            dleq.verify(self.keys[seat], self.cipher(card)[0], share, proof, context)
            have = {**self.shares.get(card, {}), seat: share}
            if card in public and all(s in have for s in self.owners(card)):
                opened[card] = self._open(card, have)
        held = dict(self.held)
        base, renamed = self._concealed(seat, message.get("conceal"), self.state, held)
        mixed = self._mixed(seat, message.get("rerandomise"), context, base, held)
        if renamed and (mixed is None or not set(renamed.values()) <= set(mixed[1])):
            raise Tampered("a card hidden again must be mixed with the hand it hides among")
        if mixed is not None:
            held.update({card: (seat, c) for card, c in zip(mixed[1], mixed[2], strict=True)})
        openings = _shares(message.get("openings"))
        for card, (share, proof) in openings.items():
            if card in opened or held.get(card, ("",))[0] != seat:
                raise Tampered(f"{card} is not a card this seat holds hidden")
            a, b = held[card][1]
            dleq.verify(self.keys[seat], a, share, proof, context)
            opened[card] = self.deck_of(card).points.card(group.sub(b, share))
        state = private_state(self.engine, base, opened)
        claims = _claims(message.get("claims"))
        wanted = self.engine.claims(state, seat, action)
        if sorted(claims) != sorted(wanted):
            raise Tampered(
                f"it claims {sorted(claims)}, the decision needs claims of {sorted(wanted)}"
            )
        for card, proof in claims.items():
            if card in opened or held.get(card, ("",))[0] != seat:
                raise Tampered(f"{card} is not a card this seat holds hidden")
            options = self.deck_of(card).points.options(self.engine.info.name, wanted[card])
            oneof.verify(held[card][1], self.keys[seat], options, proof, context)
        returns = self._check_returns(seat, message.get("returns"), held, opened, state, context)
        passes, later = self._check_passes(
            seat, message.get("passes"), held, state, action, context
        )
        facts = self._check_facts(seat, message.get("facts"), held, opened, context)
        self.engine.check(state, seat, action)
        ahead = _shares(message.get("ahead"))
        if ahead:
            allowed = self.ahead(seat, action, state, opened, facts)
            for card, (share, proof) in ahead.items():
                if card not in allowed:
                    raise Tampered(
                        f"{card} is no card its decision lays open: no share of it ahead"
                    )
                dleq.verify(self.keys[seat], self.cipher(card)[0], share, proof, context)
        self.checked[seat] = Ruling(
            action, riding, openings, ahead, opened, held, mixed, state, returns, facts, passes,
            later, renamed,
        )  # fmt: skip

    def _decide(self, seat: str, ruling: Ruling) -> None:
        """Take a checked decision: the step before it settled by its riding shares, then
        its own openings, re-randomisation and step."""
        for card, (share, _) in ruling.riding.items():
            self.shares.setdefault(card, {})[seat] = share
        if ruling.riding:
            # The step before this decision is now open to everyone it must be.
            self.opened.update({c: f for c, f in ruling.opened.items() if c in ruling.riding})
            self.state = private_state(self.engine, self.state, self.opened)
            # The openings to other seats they complete (§3.5).
            self._collect(set())
            self._settle()
        for card, (share, _) in ruling.openings.items():
            self.shares.setdefault(card, {})[seat] = share
        # Shares of what this decision lays open count from its step on.
        for card, (share, _) in ruling.ahead.items():
            self.shares.setdefault(card, {})[seat] = share
        for card, place in ruling.concealed.items():
            # Hidden again: a new slot of its deck holding (G, M + J), which anyone
            # computes (docs/peer-mottainai.md §3.3); its seat holds it under its key.
            deck = self._deck_holding(card)
            assert placeholder(deck.id, len(deck.cipher)) == place
            (m,) = deck.points.options(self.engine.info.name, [card])[:1]
            deck.cipher.append((group.BASE, group.add(m, self.joint)))
            self.told[seat].add(place)
        if ruling.mixed is not None:
            for hook in self.before_mix:
                hook(seat)
            self.arrived.update(dict.fromkeys(ruling.mixed[1], -1))
            for card in ruling.mixed[1]:  # its shares of the old ciphertexts open nothing now
                self.shares.get(card, {}).pop(seat, None)
        # The riding shares may have opened cards to other seats just now (``_needs``):
        # the ruling's held cards (its re-randomisation included) add to those.
        self.held.update(ruling.held)
        self.opened = ruling.opened
        self.state = ruling.state
        if ruling.passes:
            for hook in self.before_mix:
                hook(seat)
        self.step = Step(
            seat, dict(ruling.action), ruling.mixed, ruling.returns, ruling.facts,
            passes=ruling.passes, later=ruling.later,
        )  # fmt: skip

    def ahead(
        self,
        seat: str,
        action: Action,
        state: Any,
        opened: Mapping[str, str],
        facts: Mapping[Fact, bool] | None = None,
    ) -> set[str]:
        """The cards a decision lays open that its own seat may share at once (docs/peer.md
        §5.2): every card the views ask to open after it, to everyone or to another seat,
        of a deck already shuffled. Empty when the decision makes a deck or reads a hidden
        face (its openings then wait for the step)."""
        trial = self.engine.copy(state)
        rng = PeerRng(opened, self.made)
        try:
            with Facts(facts):
                self.engine.apply(trial, seat, action, as_rng(rng))
        except Hidden:
            return set()
        if rng.decks:
            return set()
        public = placeholders(self.engine.view(trial, None)) - set(opened)
        out = set(public)
        for other in self.seats:
            if other != seat:
                shown = placeholders(self.engine.view(trial, other)) - set(opened)
                # (Openings to it already under way are owed, and ride on the decision.)
                fresh = shown - self.told[other] - self.asked[other]
                out |= fresh - self.remembered(other, trial)
        return {
            card
            for card in out
            if seat in self.owners(card)
            and card not in self.held
            and seat not in self.shares.get(card, {})  # sent already (a pre-share)
        }

    def mixable(
        self,
        seat: str,
        state: Any = None,
        held: Mapping[str, tuple[str, Ciphertext]] | None = None,
    ) -> list[list[str]]:
        """The seat's hand held hidden, split by deck (a mix never crosses decks: which
        deck a card came from is public, and its points are that deck's), each part of
        two cards or more, in deck order."""
        parts: dict[str, list[str]] = {}
        for card in self.zone(seat, state, held):
            parts.setdefault(_slot_deck(card), []).append(card)
        return [parts[d] for d in sorted(parts, key=lambda d: int(d[1:])) if len(parts[d]) > 1]

    def _mixed(
        self,
        seat: str,
        value: Any,
        context: Context,
        state: Any = None,
        held: Mapping[str, tuple[str, Ciphertext]] | None = None,
    ) -> tuple[str, list[str], list[Ciphertext]] | None:
        """A seat's re-randomisation of its hand: every card of its zone, deck by deck,
        re-encrypted under its own key and permuted, with a shuffle proof each (so the
        card it opens next cannot be told from when it arrived)."""
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise Tampered("its re-randomisation is not a list of mixes")
        held = self.held if held is None else held
        parts = self.mixable(seat, state, held)
        if [v.get("cards") for v in value] != parts or not parts:
            whole = "; ".join(", ".join(p) for p in parts) or "nothing (fewer than 2 per deck)"
            raise Tampered(
                f"a re-randomisation takes the whole hand held hidden, deck by deck: {whole}"
            )
        cards: list[str] = []
        cipher: list[Ciphertext] = []
        for part, mix in zip(parts, value, strict=True):
            before = [held[c][1] for c in part]
            out = _cards(mix.get("cipher"), len(part))
            proof = shuffle.Proof.from_bytes(
                wire.unhex(mix.get("proof"), "the re-randomisation's proof"), len(part)
            )
            shuffle.verify(before, out, self.keys[seat], proof, context)
            cards += part
            cipher += out
        return seat, cards, cipher

    def _take(self, owed: Owed, message: dict[str, Any]) -> None:
        """Apply a checked message (its round is complete; seat order)."""
        if owed.kind == KEY:
            self.keys[owed.seat] = wire.unhex(message["key"], "the key")
            if self.remedy == "escrow":
                self.escrow[owed.seat] = (self.checked[owed.seat], message["escrow"])
            if len(self.keys) == len(self.seats):
                self.joint = elgamal.joint_key([self.keys[s] for s in self.seats])
        elif owed.kind == SHUFFLE:
            for deck, out in self.checked[owed.seat]:
                deck.cipher = out
                deck.shuffled += 1
        elif owed.kind == SHARES:
            for card, (share, _) in _shares(message["shares"]).items():
                self.shares.setdefault(card, {})[owed.seat] = share
        elif owed.kind == FACTS:
            assert self.step is not None
            self.step.facts.update(self.checked[owed.seat])
        elif owed.kind == PASSES:
            for hook in self.before_mix:
                hook(owed.seat)
            for moved in self.checked[owed.seat]:
                self._hand_over(moved)
                self.history[-1][0].passes.append(moved)
            self.passing = [g for g in self.passing if g[0] != owed.seat]
        else:
            self.stats.decisions += 1
            self._decide(owed.seat, self.checked[owed.seat])

    # -- reading -------------------------------------------------------------------------
    def narrate(self, known: Mapping[str, str], viewer: str | None, start: int = 0) -> list[str]:
        """The log of the settled steps from ``start`` as ``viewer`` reads it, with the
        cards ``known`` to it (``opened``; a seat narrates its own log, ``PeerSeat.drafts``)."""
        lines = []
        # Only settled steps: an unsettled one may still name cards about to be opened.
        for _, events in self.history[start : self.settled]:
            for event in events:
                told = Event(event.kind, substitute(event.data, known), event.barrier)
                line = self.engine.describe(told, viewer)
                if line is not None:
                    lines.append(line)
        return lines


def _slot_order(card: str) -> tuple[int, int]:
    found = PLACEHOLDER.fullmatch(card)
    assert found is not None
    return int(found.group(1)[1:]), int(found.group(2))


def _shares(value: Any) -> dict[str, tuple[bytes, bytes]]:
    if value is None:
        return {}
    if not isinstance(value, list):
        raise Tampered("its shares are not a list")
    out: dict[str, tuple[bytes, bytes]] = {}
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("card"), str):
            raise Tampered("a share does not name its card")
        card = item["card"]
        if card in out:
            raise Tampered(f"it shares {card} twice")
        out[card] = (
            wire.unhex(item.get("share"), f"the share of {card}"),
            wire.unhex(item.get("proof"), f"the proof of {card}'s share"),
        )
    return out


def _claims(value: Any) -> dict[str, bytes]:
    if value is None:
        return {}
    if not isinstance(value, list):
        raise Tampered("its claims are not a list")
    out: dict[str, bytes] = {}
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("card"), str):
            raise Tampered("a claim does not name its card")
        if item["card"] in out:
            raise Tampered(f"it claims {item['card']} twice")  # docs/peer-review.md, finding 7
        out[item["card"]] = wire.unhex(
            item.get("proof"), f"the proof of the claim on {item['card']}"
        )
    return out
