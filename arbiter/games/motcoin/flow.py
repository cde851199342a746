"""The course of a game: setup, reveals, auctions, price fluctuation, rounds, the end.

Every function mutates the state in place and appends the events it causes. The game
advances on its own until a seat must decide (a bid or pass, or which die to take back).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from arbiter.core.engine import Event, Prompt, reject
from arbiter.core.rng import Rng
from arbiter.games.motcoin import moves, scoring
from arbiter.games.motcoin.cards import HARDFORK, HARDFORKS, REMOVE, catalog
from arbiter.games.motcoin.state import (
    DICE_PER_SEAT,
    STABLE_DICE,
    Auction,
    Holding,
    Player,
    State,
)

# -- setup and the turn structure ------------------------------------------------------


def setup(table: dict[str, Any] | str, seats: list[str], rng: Rng) -> tuple[State, list[Event]]:
    """Deal dice and Stable Coins, shuffle the draw pile and reveal the first auction."""
    cards = catalog(table)
    dice = DICE_PER_SEAT[len(seats)]
    stables = list(cards.stable_ids)
    players = {
        seat: Player(dice - len(STABLE_DICE), [Holding(stables[i], list(STABLE_DICE))])
        for i, seat in enumerate(seats)
    }
    draw = list(cards.numbered)
    rng.shuffle(draw)
    # MC-R8: the first player is the first seat of the manifest.
    state = State(
        seats=list(seats),
        table=table,
        dice_per_seat=dice,
        players=players,
        first=seats[0],
        draw=draw,
        stable_supply=stables[len(seats) :],
    )
    data = {
        "seats": list(seats),
        "dice": dice,
        "stable": {seat: stables[i] for i, seat in enumerate(seats)},
        "stable_dice": list(STABLE_DICE),
        "first": seats[0],
        "gap": scoring.rise_gap(len(seats)),
    }
    events = [Event("setup", data)]
    next_auction(state, rng, events)
    return state, events


def prompt(state: State) -> Prompt | None:
    """Return who decides now: a pending "Remove one die" choice, else the bidder."""
    if state.over:
        return None
    if state.pending:
        seat = state.pending[0]
        face, options = lowest(state.players[seat])
        return Prompt(seat, "remove", {"source": state.source, "face": face, "cards": options})
    auction = state.auction
    assert auction is not None and auction.turn is not None
    return _bid_prompt(
        auction.turn,
        auction.card,
        auction.stable,
        tuple(auction.high),
        auction.high_seat,
        state.players[auction.turn].available,
    )


# A prompt is a frozen value asked for by the referee at every decision: each distinct
# one is built once and shared (its detail is read-only, as Mottainai's).
@lru_cache(maxsize=4096, typed=True)
def _bid_prompt(
    seat: str,
    card: str,
    stable: str | None,
    high: tuple[int, ...],
    high_seat: str | None,
    available: int,
) -> Prompt:
    beat = f"stronger than {list(high)}" if high else "of at least one die"
    return Prompt(
        seat,
        "bid",
        {
            "card": card,
            "stable": stable,
            "high": list(high),
            "high_seat": high_seat,
            "available": available,
            "hint": f"bid any faces {beat} with up to {available} dice, or pass",
        },
    )


def next_auction(state: State, rng: Rng, events: list[Event]) -> None:
    """Rules 4.1: reveal the next card to auction, changing round or ending as needed."""
    while not state.over and state.auction is None and not state.pending:
        if not state.draw:
            if state.round == 2 or not state.discard:
                # Unreachable with 4 HardForks (the 4th is revealed first); a safe end all the same.
                end_game(state, "pile", events)
                return
            # Rules 4, end of round 1: the discard pile, shuffled, is the new draw pile.
            state.round = 2
            state.draw, state.discard = state.discard, []
            rng.shuffle(state.draw)
            events.append(Event("round", {"round": 2, "cards": len(state.draw)}))
        reveal(state, events)
        if state.auction is not None:
            run_auction(state, events)


def reveal(state: State, events: list[Event]) -> None:
    """Turn up two cards (round 1; the higher is discarded) or one (round 2)."""
    cards = state.cards
    if state.round == 1 and len(state.draw) >= 2:
        shown = state.draw[:2]
        del state.draw[:2]
        low, high = sorted(shown, key=lambda c: cards[c]["number"])
        state.discard.append(high)
    else:
        shown = [state.draw.pop(0)]
        low, high = shown[0], None
    data: dict[str, Any] = {
        "round": state.round,
        "shown": [cards.brief(c) for c in shown],
        "card": low,
        "discarded": high,
    }
    if cards[low]["type"] == HARDFORK:
        if state.hardforks == HARDFORKS - 1:
            # Rules 4 and MC-R1: the 4th HardFork is not auctioned; the game ends.
            state.ender = low
            events.append(Event("reveal", {**data, "ends": low}, barrier=True))
            end_game(state, "hardfork", events)
            return
        state.hardforks += 1
    stable = None
    if cards[low]["double"] and state.stable_supply:
        stable = state.stable_supply.pop(0)  # Rules 7: a Stable Coin joins the auction.
    data["stable"] = stable
    data["hardforks"] = state.hardforks
    state.auction = Auction(low, stable, order=state.clockwise_from(state.first), turn=state.first)
    events.append(Event("reveal", data, barrier=True))


# -- bidding (rules 4.2) ------------------------------------------------------------------


def _next_turn(auction: Auction, seat: str) -> str | None:
    """Return the next seat clockwise after ``seat`` still bidding, never the high bidder."""
    order = auction.order
    i = order.index(seat)
    for other in order[i + 1 :] + order[: i + 1]:
        if other not in auction.passed and other != auction.high_seat:
            return other
    return None


def run_auction(state: State, events: list[Event]) -> None:
    """Skip seats that cannot bid, then resolve the auction once one bidder remains."""
    auction = state.auction
    assert auction is not None
    while True:
        live = [s for s in auction.order if s not in auction.passed]
        if auction.high_seat is not None and live == [auction.high_seat]:
            win(state, events)
            break
        if not live:
            all_pass(state, events)
            break
        # MC-R9: with no bid yet, the last seat in still decides; a bid wins at once.
        seat = auction.turn
        assert seat is not None
        if moves.can_beat(state.players[seat].available, auction.high):
            return
        # MC-R7: a seat that cannot make a stronger bid passes without being asked.
        auction.passed.append(seat)
        events.append(Event("pass", {"seat": seat, "card": auction.card, "forced": "cannot-bid"}))
        auction.turn = _next_turn(auction, seat)


def bid(state: State, seat: str, dice: list[int], rng: Rng) -> list[Event]:
    """Record a (checked) stronger bid; the previous bid's dice are taken back (FAQ)."""
    auction = state.auction
    assert auction is not None
    dice = moves.normalise(dice)
    auction.high, auction.high_seat = dice, seat
    auction.last_bids[seat] = list(dice)
    events = [Event("bid", {"seat": seat, "card": auction.card, "dice": list(dice)})]
    auction.turn = _next_turn(auction, seat)
    run_auction(state, events)
    next_auction(state, rng, events)
    return events


def pass_(state: State, seat: str, rng: Rng) -> list[Event]:
    """Record a pass, final for this card (rules 4.2)."""
    auction = state.auction
    assert auction is not None
    auction.passed.append(seat)
    events = [Event("pass", {"seat": seat, "card": auction.card})]
    auction.turn = _next_turn(auction, seat)
    run_auction(state, events)
    next_auction(state, rng, events)
    return events


def win(state: State, events: list[Event]) -> None:
    """Rules 4.2 and 7: the winner (and the Stable Coin taker) put their bid dice on cards."""
    auction = state.auction
    assert auction is not None and auction.high_seat is not None
    winner = auction.high_seat
    _place(state, winner, auction.card, auction.high)
    events.append(Event("win", {"seat": winner, "card": auction.card, "dice": list(auction.high)}))
    exempt = [winner]
    if auction.stable is not None:
        # Rules 7 and MC-R3: the last player to pass who had bid takes the Stable Coin.
        second = next((s for s in reversed(auction.passed) if s in auction.last_bids), None)
        if second is None:
            state.removed.append(auction.stable)
            events.append(Event("stable-removed", {"stable": auction.stable}))
        else:
            dice = auction.last_bids[second]
            _place(state, second, auction.stable, dice)
            events.append(Event("stable", {"seat": second, "stable": auction.stable, "dice": dice}))
            exempt.append(second)
    state.first = winner
    state.auction = None
    value = state.cards[auction.card]["fluctuation"]
    fluctuate(
        state, value, auction.card, [s for s in state.after(winner) if s not in exempt], events
    )


def all_pass(state: State, events: list[Event]) -> None:
    """Rules 4.2 and 4.3: the card leaves the game and every player applies -1."""
    auction = state.auction
    assert auction is not None
    state.removed.append(auction.card)
    if auction.stable is not None:
        state.removed.append(auction.stable)
    events.append(Event("all-pass", {"card": auction.card, "stable": auction.stable}))
    state.auction = None
    fluctuate(state, -1, auction.card, state.clockwise_from(state.first), events)


def _place(state: State, seat: str, card: str, dice: list[int]) -> None:
    player = state.players[seat]
    player.available -= len(dice)
    player.holdings.append(Holding(card, list(dice)))


# -- price fluctuation (rules 4.3) ----------------------------------------------------------


def fluctuate(
    state: State, value: int | str, card: str, seats: list[str], events: list[Event]
) -> None:
    """Apply a fluctuation value to every fluctuation die of ``seats``, in that order."""
    for seat in seats:
        player = state.players[seat]
        if not player.fluctuation_dice():
            continue
        if value == REMOVE:
            _, options = lowest(player)
            if len(options) == 1:
                take_back(state, seat, options[0], card, events)
            else:
                # MC-R5: the lowest die sits on several cards; its owner chooses which.
                state.pending.append(seat)
                state.source = card
        elif value != 0:
            assert isinstance(value, int)
            shift(state, seat, value, card, events)


def shift(state: State, seat: str, value: int, card: str, events: list[Event]) -> None:
    """Rules 4.3: move every die by ``value``, capped at 6; one going below 1 returns to the pool."""
    player = state.players[seat]
    changes = []
    returned = 0
    for holding in player.holdings:
        if not holding.dice:
            continue
        before = list(holding.dice)
        kept = [min(6, face + value) for face in before if face + value >= 1]
        back = len(before) - len(kept)
        holding.dice = kept
        returned += back
        changes.append(
            {"card": holding.card, "before": before, "after": list(kept), "returned": back}
        )
    player.available += returned
    data = {"seat": seat, "card": card, "value": value, "changes": changes, "returned": returned}
    events.append(Event("fluctuation", data))


def lowest(player: Player) -> tuple[int, list[str]]:
    """Return the lowest fluctuation die face and the cards holding one, in holding order."""
    face = min(f for h in player.holdings for f in h.dice)
    return face, [h.card for h in player.holdings if face in h.dice]


def take_back(state: State, seat: str, card: str, source: str, events: list[Event]) -> None:
    """ "Remove one die": return one lowest die from ``card`` to the seat's pool."""
    player = state.players[seat]
    face, _ = lowest(player)
    holding = next(h for h in player.holdings if h.card == card)
    holding.dice.remove(face)
    player.available += 1
    events.append(Event("take-back", {"seat": seat, "card": card, "face": face, "source": source}))


def choose_removal(state: State, seat: str, card: str, rng: Rng) -> list[Event]:
    """Apply a pending "Remove one die" choice, then continue the game."""
    events: list[Event] = []
    assert state.source is not None
    take_back(state, seat, card, state.source, events)
    state.pending.remove(seat)
    if not state.pending:
        state.source = None
        next_auction(state, rng, events)
    return events


# -- checks ------------------------------------------------------------------------------------


def check(state: State, seat: str, decision: moves.Bid | moves.Pass | moves.Remove) -> None:
    """Raise ``IllegalAction`` (citing the rule) unless ``decision`` is legal for ``seat``."""
    # A bid's prompt is only built for a message: ``check`` runs for every decision.
    if state.over:
        raise reject("the game is over: no more decisions", "4")
    if not state.pending:
        auction = state.auction
        assert auction is not None and auction.turn is not None
        if seat != auction.turn:
            raise reject(f"it is {auction.turn}'s turn to decide, not {seat}'s", "4.2")
        _check_bid(state, seat, decision, auction)
        return
    now = prompt(state)  # a pending "Remove one die" choice
    assert now is not None and now.kind == "remove"
    if seat != now.seat:
        raise reject(f"it is {now.seat}'s turn to decide, not {seat}'s", "4.2")
    if not isinstance(decision, moves.Remove):
        raise reject(
            f"first take back your lowest die (a {now.detail['face']}): "
            f'send {{"kind": "remove", "card": ...}} naming one of {now.detail["cards"]}',
            "4.3",
        )
    if decision.card not in now.detail["cards"]:
        raise reject(
            f"card {decision.card!r} holds none of your lowest dice (a {now.detail['face']}): "
            f"choose one of {now.detail['cards']}",
            "4.3",
        )


def _check_bid(
    state: State, seat: str, decision: moves.Bid | moves.Pass | moves.Remove, auction: Auction
) -> None:
    """The checks of a decision at a bid prompt (rules 4.2)."""
    if isinstance(decision, moves.Remove):
        raise reject("there is no die to take back now: bid or pass", "4.2")
    if isinstance(decision, moves.Bid):
        available = state.players[seat].available
        if len(decision.dice) > available:
            raise reject(
                f"the bid uses {len(decision.dice)} dice but {seat} has {available} available "
                "(dice on cards cannot be bid)",
                "4.2",
            )
        if not moves.stronger(decision.dice, auction.high):
            raise reject(
                f"bid {moves.normalise(decision.dice)} is not stronger than {auction.high_seat}'s "
                f"{auction.high}: compare the 6s, then the 5s, ... then the 1s",
                "4.2",
            )


def legal_actions(state: State, seat: str) -> list[dict[str, Any]]:
    """Return pass and, per number of dice, the weakest stronger bid; or the removal choices."""
    now = prompt(state)
    if now is None or now.seat != seat:
        return []
    if now.kind == "remove":
        return [{"kind": "remove", "card": card} for card in now.detail["cards"]]
    auction = state.auction
    assert auction is not None
    bids = moves.minimal_bids(state.players[seat].available, auction.high)
    return [{"kind": "pass"}] + [{"kind": "bid", "dice": dice} for dice in bids]


# -- the end (rules 4 and 5) ------------------------------------------------------------------


def end_game(state: State, reason: str, events: list[Event]) -> None:
    """Score the game and record the result; nothing more can be decided."""
    state.auction = None
    result = scoring.score(state)
    state.result = result
    events.append(Event("end", {"reason": reason, "card": state.ender}))
    for seat in state.seats:
        events.append(Event("score", {"seat": seat, **result["seats"][seat]}))
    events.append(Event("result", {"scores": result["scores"], "ranking": result["ranking"]}))
