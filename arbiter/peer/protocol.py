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
from arbiter.core.peer import dleq, elgamal, group, oneof, returned, schnorr, shuffle
from arbiter.core.peer.elgamal import Ciphertext
from arbiter.core.peer.transcript import Context
from arbiter.peer import escrow, wire
from arbiter.peer.decks import Deck

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
class Pass:
    """A hand that changed seats: ``holder``'s ``cards`` in the order they stood (ids and
    placeholders), the hidden ones re-encrypted to ``to``'s key (``cipher``, by card),
    ``kept`` what the holder held just before (it decrypts them to narrate the step that
    moved them)."""

    holder: str
    to: str
    cards: list[str]
    cipher: dict[str, Ciphertext]
    kept: dict[str, Ciphertext]


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


class PeerGame:
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
        """How many committed steps have every opening they asked for in."""
        self.on_settle: list[Callable[[], None]] = []
        """Called each time a step's openings are all in (tests and desks read views then)."""
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

    def deck_of(self, card: str) -> Deck:
        """The deck a placeholder names (its slot may be one a decision is adding)."""
        found = PLACEHOLDER.fullmatch(card)
        if found is None or found.group(1) not in self.decks:
            raise Tampered(f"{card!r} is no card of this game's decks")
        return self.decks[found.group(1)]

    def locate(self, card: str) -> tuple[Deck, int]:
        found = PLACEHOLDER.fullmatch(card)
        if found is None or found.group(1) not in self.decks:
            raise Tampered(f"{card!r} is no card of this game's decks")
        deck = self.decks[found.group(1)]
        slot = int(found.group(2))
        if slot >= len(deck.cipher):
            raise Tampered(f"{card!r} is no card of this game's decks")
        return deck, slot

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
            return [] if prompt is None else [Owed(prompt.seat, DECISION)]

    def _settle(self) -> None:
        if self.settled < len(self.history):
            self.settled = len(self.history)
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
        except Unanswered as asked:
            # A question about a seat's hidden cards its decision did not answer (it came
            # after an opening the decision could not foresee): that seat answers it.
            return [Owed(asked.fact.holder, FACTS, fact=asked.fact)]
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
            owed = self._collect(set(hidden), {})
            return owed or None
        state = private_state(self.engine, state, self.opened)
        if step.returns:
            state = self._put_back(step, state)
        for moved in step.passes:
            self._hand_over(moved)
        self.passing = list(step.later)
        self.state = state
        self.made += len(rng.decks)
        self.history.append((step, events))
        self.step = None
        return None

    def _hand_over(self, moved: Pass) -> None:
        """Cards passed to another seat are held by it now (it alone opens them). Each is
        marked as arrived alone, so that its new holder re-randomises its hand before it
        shows one: the order they came in tells nothing then."""
        self.passed.append(moved)
        for card, cipher in moved.cipher.items():
            self.shares.pop(card, None)  # shares of its old ciphertext open nothing now
            self.held[card] = (moved.to, cipher)
            self.told[moved.to].add(card)
            self.arrived[card] = -2 - len(self.arrived)

    def _put_back(self, step: Step, state: Any) -> Any:
        """Each card the step returned face down takes a new place at the end of its
        deck's slots, holding its new joint ciphertext: the old place's shares were sent
        to open it for its holder, so they must never meet it again (§3.2)."""
        assert step.seat is not None
        for card, cipher in step.returns.items():
            deck, _ = self.locate(card)
            deck.cipher.append(cipher)
            new = placeholder(deck.id, len(deck.cipher) - 1)
            step.renamed[card] = new
            self.returned[new] = (step.seat, card)
        return self.engine.decode(substitute(self.engine.encode(state), step.renamed))

    def _needs(self) -> list[Owed]:
        """The openings the views ask for (docs/peer.md §3.3)."""
        public = placeholders(self.engine.view(self.state, None)) - set(self.opened)
        private: dict[str, set[str]] = {}
        for seat in self.seats:
            shown = placeholders(self.engine.view(self.state, seat))
            private[seat] = shown - set(self.opened) - self.told[seat] - public
            private[seat] -= self.remembered(seat)
        return self._collect(public, private)

    def remembered(self, seat: str, state: Any = None) -> set[str]:
        """The cards ``seat`` returned face down and knows without an opening, while they
        are out of its hand (its view lists them, M-R18): nobody shares them for it (a
        share sent then would open the card to everyone once another seat draws it).
        Back in its hand, a card is opened to it as any drawn card is, so that it holds
        it again."""
        mine = {new for new, (who, _) in self.returned.items() if who == seat}
        if not mine:
            return mine
        table = self.state if state is None else state
        hand = {c for cards in self.engine.hands(table, seat) for c in cards}
        return mine - hand

    def _collect(self, public: set[str], private: dict[str, set[str]]) -> list[Owed]:
        """Open what every share is in for; return the shares still owed, per seat."""
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
        for seat, cards in private.items():
            for card in sorted(cards):
                have = self.shares.get(card, {})
                lacking = [s for s in self.seats if s != seat and s not in have]
                if card in self.held:
                    raise Tampered(
                        f"{card} is held by {self.held[card][0]}: it cannot pass to {seat}"
                    )
                if lacking:
                    for s in lacking:
                        missing[s].add(card)
                else:
                    self.told[seat].add(card)
                    self.arrived[card] = self.round
                    deck, slot = self.locate(card)
                    self.held[card] = (
                        seat,
                        deck.without(slot, {s: have[s] for s in self.seats if s != seat}),
                    )
        return [
            Owed(seat, SHARES, cards=tuple(sorted(missing[seat], key=_slot_order)))
            for seat in self.seats
            if missing[seat]
        ]

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

    def moving(
        self, seat: str, state: Any, action: Action, held: Mapping[str, tuple[str, Ciphertext]]
    ) -> list[tuple[str, str, list[str]]]:
        """What a decision moves between hands (``Engine.passes``), by holder: (holder,
        recipient, its cards in the order they stand in its hand), the decision's seat
        first. Each hidden one must be held by its holder (who re-encrypts it)."""
        wanted = self.engine.passes(state, seat, action)
        groups: dict[tuple[str, str], list[str]] = {}
        found = 0
        for holder in self.seats:
            for card in (c for cards in self.engine.hands(state, holder) for c in cards):
                if card not in wanted:
                    continue
                found += 1
                if _is_card(card) and held.get(card, ("",))[0] != holder:
                    raise Tampered(f"{card} moves to {wanted[card]}, {holder} holds no key to it")
                groups.setdefault((holder, wanted[card]), []).append(card)
        if found != len(wanted):
            raise Tampered("the decision moves cards that are in nobody's hand")
        rank = {s: i for i, s in enumerate(self.seats)}
        keys = sorted(groups, key=lambda k: (k[0] != seat, rank[k[0]], rank[k[1]]))
        return [(h, to, groups[(h, to)]) for h, to in keys]

    def _check_passes(
        self,
        seat: str,
        value: Any,
        held: Mapping[str, tuple[str, Ciphertext]],
        state: Any,
        action: Action,
        context: Context,
    ) -> tuple[list[Pass], list[tuple[str, str, list[str]]]]:
        """The decision's own cards that change hands, passed with it; the others' are
        owed by their holders after the step."""
        groups = self.moving(seat, state, action, held)
        mine = [g for g in groups if g[0] == seat]
        return self._passes(seat, value, mine, held, context), [g for g in groups if g[0] != seat]

    def _passes(
        self,
        seat: str,
        value: Any,
        groups: list[tuple[str, str, list[str]]],
        held: Mapping[str, tuple[str, Ciphertext]],
        context: Context,
    ) -> list[Pass]:
        """Check each hand passed: every hidden card re-encrypted to the recipient's key
        with its proof (``returned``, kind passed/1)."""
        items = value if value is not None else []
        if not isinstance(items, list) or len(items) != len(groups):
            raise Tampered(f"it must pass {len(groups)} hand(s) to other seats")
        out = []
        for (_, to, cards), item in zip(groups, items, strict=True):
            if not isinstance(item, dict) or item.get("to") != to or item.get("cards") != cards:
                raise Tampered(f"it must pass {', '.join(cards)} to {to}, in that order")
            hidden = [c for c in cards if _is_card(c)]
            new = _cards(item.get("cipher"), len(hidden)) if hidden else []
            if not hidden and item.get("cipher"):
                raise Tampered("cards everyone knows change hands with no ciphertext")
            proofs = item.get("proofs")
            if not isinstance(proofs, list) or len(proofs) != len(hidden):
                raise Tampered("each hidden card passed needs its proof")
            for card, c, pr in zip(hidden, new, proofs, strict=True):
                returned.verify(
                    held[card][1], c, self.keys[seat], self.keys[to],
                    wire.unhex(pr, "a pass's proof"), context, kind=returned.PASSED,
                )  # fmt: skip
            out.append(
                Pass(
                    seat,
                    to,
                    list(cards),
                    dict(zip(hidden, new, strict=True)),
                    {c: held[c][1] for c in hidden},
                )
            )
        return out

    def _check_returns(
        self,
        seat: str,
        value: Any,
        held: Mapping[str, tuple[str, Ciphertext]],
        opened: Mapping[str, str],
        state: Any,
        context: Context,
    ) -> dict[str, Ciphertext]:
        """Each card returned face down: one its seat holds hidden in its hand, and a new
        joint ciphertext proven to hold the same card (``core.peer.returned``)."""
        if value is None:
            return {}
        if not isinstance(value, list):
            raise Tampered("its returns are not a list")
        hand = {c for cards in self.engine.hands(state, seat) for c in cards}
        out: dict[str, Ciphertext] = {}
        for item in value:
            card = item.get("card") if isinstance(item, dict) else None
            if not isinstance(card, str) or card in out:
                raise Tampered("a return does not name its card once")
            if card in opened or held.get(card, ("",))[0] != seat or card not in hand:
                raise Tampered(f"{card} is not a card this seat holds hidden in its hand")
            (new,) = _cards([item.get("cipher")], 1)
            proof = wire.unhex(item.get("proof"), f"the proof of {card}'s return")
            returned.verify(held[card][1], new, self.keys[seat], self.joint, proof, context)
            out[card] = new
        return out

    def _check_facts(
        self,
        seat: str,
        value: Any,
        held: Mapping[str, tuple[str, Ciphertext]],
        opened: Mapping[str, str],
        context: Context,
    ) -> dict[Fact, bool]:
        """Each fact about the seat's hidden cards, with its proof: presence (one of them
        is one of the faces) or absence (each is one of its deck's other faces)."""
        if value is None:
            return {}
        if not isinstance(value, list):
            raise Tampered("its facts are not a list")
        out: dict[Fact, bool] = {}
        for item in value:
            if not isinstance(item, dict):
                raise Tampered("a fact is not an object")
            cards, faces = item.get("cards"), item.get("faces")
            if not isinstance(cards, list) or not isinstance(faces, list):
                raise Tampered("a fact names no cards or faces")
            fact = Fact(seat, tuple(cards), tuple(faces))
            if fact in out or list(faces) != sorted(set(faces)):
                raise Tampered("a fact is given twice, or its faces are not a sorted set")
            for card in cards:
                if card in opened or held.get(card, ("",))[0] != seat:
                    raise Tampered(f"{card} is not a card this seat holds hidden")
            proof = wire.unhex(item.get("proof"), "the proof of a fact")
            holds = item.get("holds")
            if not isinstance(holds, bool):
                raise Tampered("a fact does not say whether the cards hold one of the faces")
            self._verify_fact(seat, fact, holds, held, proof, context)
            out[fact] = holds
        return out

    def _verify_fact(
        self,
        seat: str,
        fact: Fact,
        holds: bool,
        held: Mapping[str, tuple[str, Ciphertext]],
        proof: bytes,
        context: Context,
    ) -> None:
        cipher = [held[card][1] for card in fact.cards]
        key = self.keys[seat]
        if holds:
            faces: list[bytes] = []
            for deck_id in sorted({_slot_deck(c) for c in fact.cards}):
                faces += self.decks[deck_id].points.options(self.engine.info.name, fact.faces)
            if not faces:
                raise Tampered("a fact of presence names no face its cards' decks hold")
            oneof.verify_some(cipher, key, faces, proof, context)
            return
        size = 0
        for card, c in zip(fact.cards, cipher, strict=True):
            others = self.others(card, fact.faces)
            part = proof[size : size + 64 * len(others)]
            size += 64 * len(others)
            oneof.verify_none([c], key, others, part, context)
        if size != len(proof):
            raise Tampered("the claim of absence has the wrong size")

    def others(self, card: str, faces: tuple[str, ...]) -> list[bytes]:
        """The points of ``card``'s deck that are none of ``faces`` (an absence's options)."""
        deck = self.deck_of(card)
        asked = set(deck.points.options(self.engine.info.name, faces))
        return [m for m in deck.points.points if m not in asked]

    def _decide(self, seat: str, ruling: Ruling) -> None:
        """Take a checked decision: the step before it settled by its riding shares, then
        its own openings, re-randomisation and step."""
        for card, (share, _) in ruling.riding.items():
            self.shares.setdefault(card, {})[seat] = share
        if ruling.riding:
            # The step before this decision is now open to everyone it must be.
            self.opened.update({c: f for c, f in ruling.opened.items() if c in ruling.riding})
            self.state = private_state(self.engine, self.state, self.opened)
            assert not self._needs(), "the shares riding on a decision are all it owed"
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
                out |= shown - self.told[other] - self.remembered(other, trial)
        return {card for card in out if seat in self.owners(card) and card not in self.held}

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

    def concealing(self, seat: str, cards: list[str], state: Any) -> dict[str, str]:
        """Where each card ``seat``'s hand holds by id goes when the seat hides it again
        (docs/peer-mottainai.md §3.3): a new place at the end of its deck's slots, in
        order."""
        counts: dict[str, int] = {}
        hand = [c for cards_ in self.engine.hands(state, seat) for c in cards_]
        out = {}
        for card in cards:
            if card not in hand or _is_card(card):
                raise Tampered(f"{card} is not a card its hand holds in everyone's sight")
            deck = self._deck_holding(card)
            n = counts.get(deck.id, len(deck.cipher))
            counts[deck.id] = n + 1
            out[card] = placeholder(deck.id, n)
        return out

    def _deck_holding(self, card: str) -> Deck:
        for deck_id in sorted(self.decks, key=lambda d: int(d[1:])):
            if self.decks[deck_id].points.copies.get(card):
                return self.decks[deck_id]
        raise Tampered(f"{card} is no card of this game's decks")

    def hidden_again(self, seat: str, card: str) -> Ciphertext:
        """A card everyone knows, under ``seat``'s key alone, as anyone computes it:
        (G, M + X) — the deck's start under the joint key, (G, M + J), less every other
        seat's share of G, which is its public key."""
        deck = self._deck_holding(card)
        (m,) = deck.points.options(self.engine.info.name, [card])[:1]
        return group.BASE, group.add(m, self.keys[seat])

    def _concealed(
        self, seat: str, value: Any, state: Any, held: dict[str, tuple[str, Ciphertext]]
    ) -> tuple[Any, dict[str, str]]:
        """A decision's concealment: the cards named go back under placeholders in the
        seat's hand (the returned state), each held under its key as anyone computes it."""
        if value is None:
            return state, {}
        if not isinstance(value, list) or not value or not all(isinstance(c, str) for c in value):
            raise Tampered("its concealment is not a list of cards")
        if len(set(value)) != len(value):
            raise Tampered("it conceals a card twice")
        renamed = self.concealing(seat, value, state)
        state = self.engine.copy(state)
        for hand in self.engine.hands(state, seat):
            hand[:] = [renamed.get(c, c) for c in hand]
        for card, place in renamed.items():
            held[place] = (seat, self.hidden_again(seat, card))
        return state, renamed

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
        cards ``known`` to it (``opened`` and, for a seat, its own)."""
        lines = []
        # Only settled steps: an unsettled one may still name cards about to be opened.
        for _, events in self.history[start : self.settled]:
            for event in events:
                told = Event(event.kind, substitute(event.data, known), event.barrier)
                line = self.engine.describe(told, viewer)
                if line is not None:
                    lines.append(line)
        return lines


def _slot_deck(card: str) -> str:
    found = PLACEHOLDER.fullmatch(card)
    assert found is not None
    return found.group(1)


def _is_card(card: str) -> bool:
    """A placeholder (a hidden card), not an id everyone knows."""
    return PLACEHOLDER.fullmatch(card) is not None


def _slot_order(card: str) -> tuple[int, int]:
    found = PLACEHOLDER.fullmatch(card)
    assert found is not None
    return int(found.group(1)[1:]), int(found.group(2))


def _cards(value: Any, n: int) -> list[Ciphertext]:
    if not isinstance(value, list) or len(value) != n:
        raise Tampered(f"the shuffled deck does not list {n} cards")
    out = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise Tampered("a card of the shuffled deck is not a pair of points")
        out.append(
            (
                group.point(wire.unhex(pair[0], "a card"), "a card"),
                group.point(wire.unhex(pair[1], "a card"), "a card"),
            )
        )
    return out


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
