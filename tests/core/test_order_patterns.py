"""`arbiter.core.order_patterns`: a standing order's `when` read as a glob over decisions."""

from __future__ import annotations

import pytest

from arbiter.core import registry
from arbiter.core.order_patterns import met, reach, viable

PLAY3 = {"kind": "play", "card": 3}
PLAY4 = {"kind": "play", "card": 4}
DRAW = {"kind": "draw"}


@pytest.mark.parametrize(
    ("when", "since", "is_viable", "is_met"),
    [
        ([], [], True, True),
        ([], [DRAW], False, False),
        (["*"], [], True, True),
        (["*"], [PLAY3, DRAW, PLAY4], True, True),
        ([PLAY3, DRAW], [PLAY3], True, False),
        ([PLAY3, DRAW], [PLAY4], False, False),
        ([PLAY3, DRAW], [PLAY3, DRAW], True, True),
        ([PLAY3, DRAW], [PLAY3, DRAW, DRAW], False, False),
        ([{"kind": "play"}, "*"], [PLAY4, DRAW], True, True),
        ([{"kind": "play"}, "*"], [DRAW], False, False),
        (["*", PLAY3, "*"], [DRAW, DRAW], True, False),
        (["*", PLAY3, "*"], [DRAW, PLAY3, DRAW], True, True),
        (["*", PLAY3], [PLAY3, PLAY4], True, False),  # the star may still take both
        (["*", PLAY3], [PLAY4, PLAY3], True, True),
        ([{"kind": "play", "card": 3, "extra": 1}], [PLAY3], False, False),
        (["*", "*", DRAW], [PLAY3, DRAW], True, True),
    ],
)
def test_patterns(when: list, since: list, is_viable: bool, is_met: bool) -> None:
    assert viable(when, since, exact=False) is is_viable
    assert met(when, since, exact=False) is is_met


def test_version_1_conditions_are_exact() -> None:
    assert not viable([{"kind": "play"}], [PLAY3], exact=True)
    assert met([PLAY3, DRAW], [PLAY3, DRAW], exact=True)
    assert not met([PLAY3], [PLAY3, DRAW], exact=True)


def test_reach_is_the_set_of_positions() -> None:
    assert reach(["*", PLAY3, "*"], [PLAY3], exact=False) == frozenset({0, 1, 2, 3})
    assert reach([PLAY3, DRAW], [PLAY3], exact=False) == frozenset({1})


def test_a_hidden_field_never_matches() -> None:
    """Mottainai's public form of a return leaves the card out (M-R18): a pattern that
    names the card can never fire, so no step tells anyone which card went back."""
    engine = registry.get("mottainai")
    returned = engine.public_decision({"kind": "return", "card": 7})
    assert not viable([{"kind": "return", "card": 7}], [returned], exact=False)
    assert met([{"kind": "return"}], [returned], exact=False)
