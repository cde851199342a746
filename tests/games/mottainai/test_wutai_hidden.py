"""WUT-12: Wutai hidden information — what resampling redraws, what determinising rebuilds.

The generic leak test (tests/conformance, case ``mottainai+wutai``) asserts a seat's view
and log never change when what it cannot see is redrawn; these cases show that the redraw
reaches every hidden Wutai zone (so the generic test is not vacuous for them).
"""

from __future__ import annotations

from wutai_kit import wbuild

from arbiter.core.rng import Rng
from arbiter.games.mottainai.wutai import is_om


def test_WUT_12_1_resample_redraws_wutai_cards_in_hands_waiting_areas_and_the_deck(mot):
    """WUT-12.1 (M-R102, M-R104): other hands' Wutai cards, every waiting area's and the
    Wutai deck's order are hidden; the seat's own returns keep their places."""
    state = wbuild(
        mot,
        mot.SEATS3,
        hand={"alice": ["kite", "om-01"], "bob": ["om-02", "mask"], "carol": ["om-03"]},
        waiting={"bob": ["om-04"], "carol": ["om-05"]},
    )
    state.wutai["deck"].remove("om-06")  # as if alice had returned it
    state.wutai["deck"].append("om-06")
    state.known["om-06"] = "alice"
    seen: dict[str, set[str]] = {"bob": set(), "carol-w": set(), "deck0": set()}
    for i in range(12):
        other = mot.engine.resample(state, "alice", Rng(bytes([i]) * 32))
        mot.engine.invariants(other)
        assert mot.engine.view(other, "alice") == mot.engine.view(state, "alice")
        assert other.players["alice"].hand == ["kite", "om-01"]
        assert other.wutai["deck"][-1] == "om-06" and other.known["om-06"] == "alice"
        bob = [c for c in other.players["bob"].hand if is_om(c)]
        assert len(bob) == 1 and len(other.players["bob"].hand) == 2
        seen["bob"].add(bob[0])
        seen["carol-w"].add(other.players["carol"].waiting[0])
        seen["deck0"].add(other.wutai["deck"][0])
        assert all(is_om(c) for c in other.players["carol"].waiting)
    assert all(len(s) > 1 for s in seen.values()), seen


def test_WUT_12_2_determinize_rebuilds_a_wutai_state_from_a_view(mot):
    """WUT-12.2 (bots): a state rebuilt from one seat's view shows that seat the same view,
    the Wutai split of every hidden zone respected."""
    state, _ = mot.new_game(mot.SEATS3, wutai="yes")
    view = mot.engine.view(state, "bob")
    rebuilt = mot.engine.determinize(view, "bob", Rng(b"d" * 32))
    mot.engine.invariants(rebuilt)
    assert mot.engine.view(rebuilt, "bob") == view
    for seat in mot.SEATS3:
        p = rebuilt.players[seat]
        assert sum(map(is_om, p.hand)) == view["players"][seat]["hand_wutai"]


def test_WUT_12_3_determinize_counts_tucked_cards(mot):
    """WUT-12.3 (M-R107): base and Wutai cards tucked under Om works are placed, not dealt."""
    state = wbuild(
        mot,
        mot.SEATS3,
        hand={"alice": ["kite", "om-01"], "bob": ["om-02", "mask"]},
        gallery={"bob": ["om-03"]},
        om={"om-03": {"helpers": ["fan", "om-04"], "sales": ["bell"]}},
    )
    for seat in mot.SEATS3:
        view = mot.engine.view(state, seat)
        rebuilt = mot.engine.determinize(view, seat, Rng(b"t" * 32))
        mot.engine.invariants(rebuilt)
        assert mot.engine.view(rebuilt, seat) == view
