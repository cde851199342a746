"""The colours Mottainai's cards are drawn in, one per material (terminal and HTML).

Drawing data only, no rule: ``arbiter show``/``arbiter replay`` paint each card in its
material's colours so a table reads at a glance, as the printed cards do.
"""

from __future__ import annotations

MATERIAL_COLOURS: dict[str, tuple[str, str]] = {
    "PAPER": ("#efe8d5", "#2b2b2b"),  # cream paper, dark text
    "STONE": ("#7d8288", "#ffffff"),  # grey stone
    "CLOTH": ("#3d5a98", "#ffffff"),  # indigo cloth
    "CLAY": ("#b4542d", "#ffffff"),  # terracotta
    "METAL": ("#d2a73a", "#1e1e1e"),  # brass
}
"""Material → (background, text) as ``#rrggbb``."""
