"""Cover (rules: Cover): works in a wing cover helpers or sales of their material.

A work covers as many cards as its value. Cover is all-or-nothing per material: if the
works of a material cannot cover every helper (sale) of it, none is covered.
"""

from __future__ import annotations

from arbiter.core.hidden import Hidden
from arbiter.games.mottainai.cards import MATERIAL, VALUE, card
from arbiter.games.mottainai.effects.dispatch import identity, query
from arbiter.games.mottainai.state import State


def material(iid: str) -> str:
    """Return the material of a card (as a task, helper, material or sale)."""
    return card(iid).material


def work_material(state: State, work: str) -> str:
    """Return the material of a completed work (a Kite copy counts as its model)."""
    return card(identity(state, work)).material


def wing_works(state: State, seat: str, wing: str) -> list[str]:
    """Return the works counting in ``wing`` (continuous effects such as Go Set may add)."""
    works = state.players[seat].wing(wing)
    out: list[str] = query(state, seat, "wing_works", works, {"wing": wing})
    return out


def capacity(state: State, seat: str, wing: str, mat: str) -> int:
    """Return how many cards of ``mat`` the works in ``wing`` cover (rules: Cover)."""
    # A Kite copy counts as its model, as in ``work_material``.
    models = [identity(state, w) for w in wing_works(state, seat, wing)]
    return count(models, mat) * VALUE[mat]


def count(cards: list[str], mat: str) -> int:
    """Return how many of ``cards`` are of material ``mat``."""
    return list(map(MATERIAL.__getitem__, cards)).count(mat)


def helper_count(state: State, seat: str, mat: str) -> int:
    """Return the seat's ``mat`` helpers, with Fountain's revealed cards during a task (M-R6)."""
    helpers = state.players[seat].helpers
    n = count(helpers, mat) if helpers else 0
    task = state.task
    if task is not None and seat == state.current and task["material"] == mat:
        n += task.get("helpers", 0)
    return n


def helpers_covered(state: State, seat: str, mat: str) -> bool:
    """Return whether the seat's ``mat`` helpers are covered by its Gallery (all or none)."""
    n = helper_count(state, seat, mat)
    covered = 0 < n <= capacity(state, seat, "gallery", mat)
    return bool(query(state, seat, "helpers_covered", covered, {"material": mat}))


def sales_covered(state: State, seat: str, mat: str) -> bool:
    """Return whether the seat's ``mat`` sales are covered by its Gift Shop (all or none)."""
    n = count(state.players[seat].sales, mat)
    return 0 < n <= capacity(state, seat, "gift_shop", mat)


def helper_actions(state: State, seat: str, mat: str) -> tuple[int, bool]:
    """Return the extra actions the seat's helpers give on a ``mat`` task, and if covered.

    Rules: Performing a task: one per matching helper, two per covered helper.
    """
    n = helper_count(state, seat, mat)
    if n == 0:
        return 0, False
    covered = helpers_covered(state, seat, mat)
    return (2 * n if covered else n), covered


def wing_count(state: State, seat: str, wing: str) -> int:
    """Return the number of works counting in a wing, for the game end (rules: Game End).

    Wutai: Om works count unless ``om_works_end=no`` (M-R111).
    """
    works = wing_works(state, seat, wing)
    w = state.wutai
    if w is not None and not w["works_end"]:
        from arbiter.games.mottainai.wutai import is_om

        return sum(1 for c in works if not is_om(c))
    return len(works)


def covered(state: State, seat: str) -> tuple[list[str], list[str]]:
    """Return the materials of the seat's covered helpers and of its covered sales, sorted
    (for the views), asking ``helpers_covered`` and ``sales_covered`` for each material."""
    p = state.players[seat]
    if not p.gallery and not p.gift_shop:
        return [], []  # no work covers anything, and none has an effect (Bangle, Go Set)
    try:
        helpers = sorted(set(map(MATERIAL.__getitem__, p.helpers)))
        sales = sorted(set(map(MATERIAL.__getitem__, p.sales)))
    except Hidden:
        # A card just turned up into a temple (Bell, Socks, Bowl) is a placeholder on a peer
        # game's shared state until the views open it; that view serves only to find it
        # (docs/peer.md §3.3), and a view never raises.
        return [], []
    return (
        [mat for mat in helpers if helpers_covered(state, seat, mat)],
        [mat for mat in sales if sales_covered(state, seat, mat)],
    )
