"""The colours Mot Coin's cards are drawn in, one per card type (terminal and HTML).

Drawing data only, no rule.
"""

from __future__ import annotations

TYPE_COLOURS: dict[str, tuple[str, str]] = {
    "motcoin": ("#d9a521", "#1e1e1e"),  # gold coin
    "hardfork": ("#b03a2e", "#ffffff"),  # red fork
    "stablecoin": ("#2e8b57", "#ffffff"),  # green stable
}
"""Card type → (background, text) as ``#rrggbb``."""
