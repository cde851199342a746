"""Rebuild a full Mottainai state from one seat's view (the bots' determinisation).

A view shows every temple, the floor, face-up tasks, the seat's own hand, the cards it
returned to the deck, the cards shown to everyone (a revealed hand, cards seen going to a
waiting area) and the size of every hidden zone. The cards nobody can place are dealt at
random to other hands, every waiting area (hidden even from its owner), the face-down
tasks and the deck. Returned cards went to the deck's bottom, so they are put there.

What the view does not carry is restored with its resting value: the open triggers get
an empty context, a task no extra action. Search from such a state is an approximation
at an effect prompt; ``arbiter.bots`` compares the rebuilt state's legal decisions with
the state file's before trusting it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from arbiter.core.engine import ImpossibleView
from arbiter.core.rng import Rng
from arbiter.games.mottainai import wutai
from arbiter.games.mottainai.cards import deck_ids
from arbiter.games.mottainai.effects import dispatch
from arbiter.games.mottainai.state import PUBLIC, Player, State
from arbiter.games.mottainai.views import TURN_FACTS

TEMPLE = ("helpers", "craft_bench", "sales", "gallery", "gift_shop")


def determinize(
    view: Mapping[str, Any], seat: str, rng: Rng, prompt: Mapping[str, Any] | None = None
) -> State:
    """Return a state showing ``view`` to ``seat``, the hidden cards dealt at random."""
    seats = list(view["seats"])
    shown = view["players"]
    deck_view = view["deck"]
    mine = list(deck_view.get("returned_by_you", ()))
    public = list(deck_view.get("returned_publicly", ()))
    placed: Counter[str] = Counter(view["floor"]) + Counter(mine) + Counter(public)
    for s, p in shown.items():
        for zone in TEMPLE:
            placed.update(p[zone])
        if p["task"] is not None:
            placed[p["task"]] += 1
        if s == seat:
            placed.update(p["hand"])
    players = {
        s: Player(
            hand=list(p["hand"]) if s == seat else [],
            task=p["task"],
            face_down=p["task_face_down"],
            helpers=list(p["helpers"]),
            bench=list(p["craft_bench"]),
            sales=list(p["sales"]),
            gallery=list(p["gallery"]),
            gift_shop=list(p["gift_shop"]),
        )
        for s, p in shown.items()
    }
    # Cards everyone saw go to a waiting area stay there; revealed hand cards stay in hand.
    # An instance id is one card (``kite#2`` is the second deck's): placed once at most.
    for s, p in shown.items():
        for c in p.get("waiting_seen", ()):
            if not placed[c]:
                players[s].waiting.append(c)
                placed[c] += 1
    revealed = view["revealed"]
    if revealed is not None:
        owners = {c: o for o, cards in revealed.get("hands", {}).items() for c in cards}
        # A Jar's taken cards went to its seat (its waiting area, its hand after Night): a
        # reveal stays in the view until the next decision, Night may pass in between.
        taken = set(revealed.get("taken", ()))
        owners.update(dict.fromkeys(taken, revealed["seat"]))
        for c in revealed["cards"]:
            owner = owners.get(c, revealed["seat"])
            if owner == seat or placed[c]:
                continue
            if len(players[owner].hand) < shown[owner]["hand_count"]:
                players[owner].hand.append(c)
                placed[c] += 1
    wutai_state = _deal_wutai(view, seat, players, placed, rng) if view.get("wutai") else None
    pool = list((Counter(deck_ids(_copies(view))) - placed).elements())
    rng.shuffle(pool)
    for s, p in shown.items():
        player = players[s]
        if s != seat:
            player.hand += _deal(pool, p["hand_count"] - len(player.hand), f"{s}'s hand")
        player.waiting += _deal(
            pool, p["waiting_count"] - len(player.waiting), f"{s}'s waiting area"
        )
        if p["task_face_down"]:
            player.task = _deal(pool, 1, f"{s}'s face-down task")[0]
    deck, known = _deck(deck_view, pool, [c for c in public if c != deck_view.get("top")], mine)
    known |= {c: PUBLIC for c in public}
    for c in mine:
        known[c] = seat
    if wutai_state is not None:
        known |= wutai_state.pop("known")
    memo: dict[str, Any] = {}
    if view["copies"]:
        memo["copies"] = dict(view["copies"])
    seen = {s: list(p["waiting_seen"]) for s, p in shown.items() if p.get("waiting_seen")}
    if seen:
        memo["seen_waiting"] = seen
    if any(p.get("bonus_turn") for p in shown.values()):
        memo["bonus_turn"] = True
    # This turn's settled facts (views._turn_facts): public, shown on the current seat.
    current = shown.get(view["current"], {})
    memo.update({key: current[name] for key, name in TURN_FACTS.items() if current.get(name)})
    task = view["task"]
    state = State(
        seats=seats,
        decks=_copies(view),
        extended=view["works_to_end"] == 6,
        teams=view["teams"] is not None,
        players=players,
        deck=deck,
        floor=list(view["floor"]),
        start=view["start"],
        current=view["current"],
        turn=view["turn"],
        phase="night" if view["phase"] == "over" else view["phase"],
        queue=list(view["queue"]),
        task=None if task is None else _task(task, prompt),
        frames=_frames(view, prompt),
        known=known,
        revealed=None if revealed is None else dict(revealed),
        memo=memo,
        end=view["end"],
        result=view["result"],
        wutai=wutai_state,
    )
    if wutai_state is not None and "tucking" in view["wutai"]:
        state.frames.append(
            {"type": "tuck", "seat": state.current, "work": view["wutai"]["tucking"]}
        )
    if wutai_state is not None and "placing" in view["wutai"]:  # on top of all (M-R119)
        queue = [dict(e) for e in view["wutai"]["placing"]]
        state.frames.append({"type": "place", "seat": state.current, "queue": queue})
    # A Mask marks an opponent's task as the current seat reaches it (M-R4): public works.
    task_now = state.task
    task_owner: str = "" if task_now is None else task_now["owner"]
    if (
        task_now is not None
        and state.is_opponent(state.current, task_owner)
        and dispatch.query(state, task_owner, "mask", False)
    ):
        task_now["mask"] = True
    if task_now is not None:
        _fountain_helpers(state, task_now, shown[state.current]["covered_helpers"])
    return state


def _fountain_helpers(state: State, task: dict[str, Any], covered: list[str]) -> None:
    """Restore the hand cards a Fountain revealed as helpers for this task (M-R6): the view
    shows only what they do to cover, so take the fewest that cover as the view does."""
    from arbiter.games.mottainai.cover import helpers_covered

    mat = task["material"]
    want = mat in covered
    for extra in range(len(state.players[state.current].hand) + 1):
        task["helpers"] = extra
        if helpers_covered(state, state.current, mat) == want:
            break
    if not task["helpers"] or helpers_covered(state, state.current, mat) != want:
        del task["helpers"]  # none, or the view shows a cover no count of them gives


def _deal_wutai(
    view: Mapping[str, Any],
    seat: str,
    players: dict[str, Player],
    placed: Counter[str],
    rng: Rng,
) -> dict[str, Any]:
    """Deal the Wutai cards ``seat`` cannot place to the hidden Wutai slots (the split of
    every hand and waiting area is public, M-R102); the rest is the Wutai deck, the cards
    returned (by ``seat`` or in sight) at its bottom. Returns the state's ``wutai`` part
    with a ``known`` entry for the caller."""
    w = view["wutai"]
    key = wutai.BUILTIN if w["cards"] == wutai.BUILTIN else w["cards"]["digest"]
    deck_view = w["deck"]
    mine = list(deck_view.get("returned_by_you", ()))
    public = list(deck_view.get("returned_publicly", ()))
    om = {work: {e: list(cards) for e, cards in under.items()} for work, under in w["om"].items()}
    seen: Counter[str] = Counter(mine) + Counter(public)
    for under in om.values():
        for cards in under.values():
            seen.update(cards)
            placed.update(cards)  # tucked base cards are in no base zone (M-R107)
    ids = wutai.om_ids(key)
    for c in ids:
        if placed[c]:
            seen[c] += placed[c]
    for p in players.values():  # cards already placed from the view (waiting_seen, reveals)
        for c in p.hand + p.waiting:
            if wutai.is_om(c) and not placed[c]:
                seen[c] += 1
    pool = [c for c in ids if not seen[c]]
    rng.shuffle(pool)
    for s, p in view["players"].items():
        player = players[s]
        if s != seat:
            k = p["hand_wutai"] - sum(1 for c in player.hand if wutai.is_om(c))
            player.hand += _deal(pool, k, f"{s}'s Wutai hand cards")
        k = p["waiting_wutai"] - sum(1 for c in player.waiting if wutai.is_om(c))
        player.waiting += _deal(pool, k, f"{s}'s waiting Wutai cards")
    placed.update(c for p in players.values() for c in p.hand + p.waiting if wutai.is_om(c))
    deck = pool + public + mine
    if len(deck) != deck_view["count"]:
        raise ImpossibleView("the Wutai deck's count disagrees with the cards left for it")
    known = {c: PUBLIC for c in public} | {c: seat for c in mine}
    return {
        "table": key,
        "deck": deck,
        "om": om,
        "draws": w["draws"],
        "works_end": w["works_end"],
        "leave": w["leave"],
        "known": known,
    }


def _task(task: Mapping[str, Any], prompt: Mapping[str, Any] | None) -> dict[str, Any]:
    """Return the Noon task: its extra actions are counted in ``total`` already; a Mask
    shows in the prompt's hint (flow.MASK_HINTS)."""
    out = {**task, "extra": 0}
    hint = prompt["detail"].get("hint") if prompt is not None else None
    if (
        prompt is not None
        and prompt["kind"] == "action"
        and isinstance(hint, str)
        and "Mask" in hint
    ):
        out["mask"] = True
    return out


def _frames(view: Mapping[str, Any], prompt: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Return the open triggers (outermost first); a TAILOR's returns lie under its
    before-TAILOR trigger, or are the prompt itself."""
    seat = view["current"]
    frames: list[dict[str, Any]] = []
    for t in view["triggers"]:
        if t["moment"] == "before_tailor":
            frames.append({"type": "tailor", "seat": seat, "task_action": True})
        frames.append(
            {
                "type": "effects",
                "seat": seat,
                "moment": t["moment"],
                "ctx": dict(t.get("ctx", {})),  # what the view shows of it (public)
                "used": list(t["used"]),
                "groups": [],
                "closed": bool(t.get("closed")),
            }
        )
    if (
        prompt is not None
        and prompt["kind"] == "tailor"
        and (not frames or frames[-1]["type"] != "tailor")
    ):
        frames.append({"type": "tailor", "seat": seat, "task_action": True})
    return frames


def _copies(view: Mapping[str, Any]) -> int:
    """Rules: one deck for 2-3 players, two for 4-5 (M-R20)."""
    return 2 if len(view["seats"]) >= 4 else 1


def _deck(
    deck_view: Mapping[str, Any], pool: list[str], public: list[str], mine: list[str]
) -> tuple[list[str], dict[str, str]]:
    """Return the deck, top first: a public top card, the unknown cards, then the returned
    ones at the bottom (returns go under the deck), and who knows which."""
    top = [deck_view["top"]] if "top" in deck_view else []
    # With no unknown card left, a publicly known card must not end up on top unseen.
    rest = pool + public + mine if pool or top else mine + public
    deck = top + rest
    if len(deck) != deck_view["count"]:
        raise ImpossibleView("the deck's count disagrees with the cards left for it")
    return deck, {}


def _deal(pool: list[str], k: int, where: str) -> list[str]:
    """Take ``k`` cards from the pool for ``where``; a view that counts fewer cards there
    than it shows, or more than are left, is no game's."""
    if not 0 <= k <= len(pool):
        raise ImpossibleView(f"{where} counts cards the rest of the view does not leave")
    taken = pool[:k]
    del pool[:k]
    return taken
