"""Archives stay verifiable: every released engine version either replays with this
arbiter or is referred to the release that replays it (arbiter/releases.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter import __version__
from arbiter.core import registry
from arbiter.core.errors import VerificationFailed
from arbiter.core.replay import verify
from arbiter.releases import RELEASES, advice, releases_with

ROOT = Path(__file__).resolve().parents[2]
# One finished, revealed game per released engine version: older versions kept here
# (made by the release that shipped them), current ones are the examples.
GAMES = sorted(ROOT.glob("tests/golden/releases/*/game")) + sorted(ROOT.glob("examples/*/game"))


def test_this_release_is_listed_with_its_engines():
    assert RELEASES[__version__] == {
        name: registry.get(name).info.version for name in ("mottainai", "motcoin", "momiji")
    }


def test_every_released_engine_version_has_a_golden_game():
    have = set()
    for game in GAMES:
        engine = json.loads((game / "game.json").read_text())["engine"]
        have.add((engine["name"], engine["version"]))
    wanted = {(name, version) for engines in RELEASES.values() for name, version in engines.items()}
    assert wanted <= have, f"no golden game for {sorted(wanted - have)}"


@pytest.mark.parametrize("game", GAMES, ids=[g.parent.name for g in GAMES])
def test_a_golden_game_replays_or_names_its_release(game):
    manifest = json.loads((game / "game.json").read_text())
    name, version = manifest["engine"]["name"], manifest["engine"]["version"]
    if registry.get(name).info.version == version:
        assert verify(game).replayed
        return
    with pytest.raises(VerificationFailed) as info:
        verify(game)
    release = releases_with(name, version)[0]
    assert f"verify it with arbiter {release}," in info.value.message
    assert "\n" not in info.value.message


def test_the_release_that_created_a_game_comes_first():
    assert "arbiter 0.1.0, the release that created it" in advice("mottainai", "0.1.0", "0.1.0")
    assert "latest release that ships momiji 1.0.0" in advice("momiji", "1.0.0", None)
    assert "no arbiter release" in advice("momiji", "9.9.9", "0.9.0")
