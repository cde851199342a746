"""The ``mot`` fixture: Mottainai rules cases on exact tables (``mottainai_scenario``)."""

from __future__ import annotations

import pytest
from mottainai_scenario import Scenario


@pytest.fixture(params=["referee", "peer"])
def mot(request: pytest.FixtureRequest) -> Scenario:
    """Every rules case in both modes: as the referee plays it, and on a peer table too
    (docs/peer-mottainai.md, ``helpers.scenario``)."""
    return Scenario(peer=request.param == "peer")
