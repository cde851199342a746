"""Write ``examples/<game>/replay.html`` for each example game (and the README's pictures).

    python tests/viewer/regenerate.py               # the example pages
    python tests/viewer/regenerate.py --pictures    # also docs/images/replay-<game>.png

``pages()`` is what the drift test compares with the committed files, byte for byte.
The pictures need Debian's chromium and chromium-driver (and selenium).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from arbiter.viewer.page import build

GAMES = ("mottainai", "motcoin", "momiji")
PAGES = (*GAMES, "mottainai-wutai")
"""The examples with a replay page: one per engine, and Wutai Mountain's."""
PICTURE_ENTRY = {"mottainai": -1, "motcoin": 60, "momiji": 20}
"""Which entry each README picture shows (-1: the last, with the result)."""


def pages(root: Path = ROOT) -> dict[Path, bytes]:
    """Return each example's replay page: its path and its exact bytes."""
    return {
        root / "examples" / game / "replay.html": build(root / "examples" / game / "game").data
        for game in PAGES
    }


def pictures(root: Path = ROOT) -> None:
    """Write docs/images/replay-<game>.png from the example pages, in headless Chromium."""
    sys.path.insert(0, str(Path(__file__).parent))
    from viewer_browser import browser

    with browser(width=1400, height=1100) as driver:
        for game in GAMES:
            page = root / "examples" / game / "replay.html"
            driver.get(page.as_uri())
            driver.execute_script(
                "ArbiterViewer.go(arguments[0] < 0 ? 1e9 : arguments[0]);", PICTURE_ENTRY[game]
            )
            target = root / "docs" / "images" / f"replay-{game}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(driver.get_screenshot_as_png())
            print(f"wrote {target.relative_to(root)}")


def main() -> None:
    for path, data in pages().items():
        path.write_bytes(data)
        print(f"wrote {path.relative_to(ROOT)} ({len(data):,} bytes)")
    if "--pictures" in sys.argv[1:]:
        pictures()


if __name__ == "__main__":
    main()
