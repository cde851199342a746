"""Wutai Mountain: the Om card list, its installation into the card tables, the Wutai deck.

The list is data (``wutai.json``, checked against ``wutai.schema.json``); a group loads its
own with ``--option wutai_cards=FILE`` (embedded in the manifest). Om cards are looked up
like base cards (``cards.card``, ``MATERIAL``, the log's names), so a list is *installed*
into those tables; a state names its list by digest and ``ensure`` re-installs it when
another list was installed since (several games in one process).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from arbiter.core import datafile
from arbiter.games.mottainai.cards import CARDS, INSTANCES, MATERIAL, Card

if TYPE_CHECKING:  # jsonschema checks custom tables only: loaded when one is read
    import jsonschema

BUILTIN = datafile.BUILTIN
FORMAT = "arbiter.mottainai-wutai/1"
EDGES = ("helpers", "materials", "sales")
"""Where a card is tucked under an Om work: left (Om helper), bottom (Om material),
right (Om sale)."""
DRAWS = ("prayer", "any")
"""``wutai_draws``: which draws to an empty-of-Wutai waiting area are Wutai cards (M-R103)."""
LEAVES = ("return", "floor")
"""``om_leave``: where tucked cards go when their Om work leaves play (M-R112)."""


def _package_json(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(_package_json("wutai.schema.json"))


@lru_cache(maxsize=1)
def builtin_table() -> dict[str, Any]:
    """Return the shipped (provisional) list."""
    table: dict[str, Any] = _package_json("wutai.json")
    return table


def problem(table: Any) -> str | None:
    """Return the first thing wrong with a list as one line, or ``None`` if it is valid."""
    import jsonschema

    errors = sorted(
        _validator().iter_errors(table), key=lambda e: (list(e.absolute_path), e.message)
    )
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        where = "/".join(str(part) for part in error.absolute_path) or "top level"
        message = str(error.message)
        return f"{message[:157] + '...' if len(message) > 160 else message} (at {where})"
    from arbiter.games.mottainai.om_effects import OM_EFFECTS

    seen: set[str] = set()
    for i, row in enumerate(table["cards"]):
        cid = row["id"]
        if cid in seen:
            return f"card id {cid!r} is listed twice (at cards/{i})"
        if cid in CARDS:
            return f"card id {cid!r} is a base card's id: choose another (at cards/{i})"
        seen.add(cid)
        effect = row["effect"]
        if effect is not None and effect not in OM_EFFECTS:
            known = ", ".join(sorted(OM_EFFECTS))
            return (
                f"card {cid!r} names the effect {effect!r}, which this engine does not "
                f"implement (known: {known}; or null for a vanilla Om work) (at cards/{i})"
            )
    return None


def load_file(path: str) -> dict[str, Any]:
    """Read and validate a group's own list, or raise ``UsageError`` saying what is wrong."""
    return datafile.load(path, "Wutai card list", "wutai.schema.json", problem)


def resolve(option: Any) -> dict[str, Any] | str:
    """Check a manifest value: ``"builtin"`` or an embedded list."""
    return datafile.resolve(option, "Wutai card list", problem)


def digest(table: dict[str, Any] | str) -> str:
    """Return the name a state gives its list: ``builtin`` or a digest of the rows."""
    if table == BUILTIN:
        return BUILTIN
    assert isinstance(table, dict)
    text = json.dumps(table["cards"], sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()[:32]


TABLES: dict[str, dict[str, Any]] = {}
"""Digest → list, for every list set up in this process (the builtin one at import)."""


@dataclass
class _Active:
    digest: str = ""
    ids: tuple[str, ...] = ()


ACTIVE = _Active()


def register(table: dict[str, Any] | str) -> str:
    """Remember a list by digest (so ``ensure`` can install it) and return the digest."""
    key = digest(table)
    if key not in TABLES:
        TABLES[key] = builtin_table() if table == BUILTIN else dict(table)  # type: ignore[arg-type]
    return key


def ensure(key: str) -> None:
    """Install list ``key`` into the card tables unless it is the installed one."""
    if ACTIVE.digest != key:
        install(key)


def install(key: str) -> None:
    """Put the Om cards of list ``key`` in the card tables (the previous list's go)."""
    from arbiter.games.mottainai import narrate
    from arbiter.games.mottainai.effects import dispatch
    from arbiter.games.mottainai.effects.registry import ANSWERING
    from arbiter.games.mottainai.om_effects import OM_EFFECTS, RUNNING

    table = TABLES[key]
    for old in ACTIVE.ids:
        INSTANCES.pop(old, None)
        MATERIAL.pop(old, None)
        RUNNING.pop(old, None)
        narrate.forget(old)
    gone = set(ACTIVE.ids)
    by_window = {w: set(ids) - gone for w, ids in dispatch.BY_WINDOW.items()}
    by_moment = {m: set(ids) - gone for m, ids in dispatch.BY_MOMENT.items()}
    ids: list[str] = []
    for row in table["cards"]:
        cid = row["id"]
        eff = OM_EFFECTS.get(row["effect"]) if row["effect"] else None
        window = eff.window if eff is not None else "none"
        moment = eff.moment if eff is not None else ""
        INSTANCES[cid] = Card(cid, row["name"], row["material"], window, row["note"], moment)
        MATERIAL[cid] = row["material"]
        narrate.learn(cid)
        if eff is not None:
            RUNNING[cid] = eff.as_effect(cid)
            for name in eff.queries:
                ANSWERING[name] = ANSWERING.get(name, frozenset()) | {cid}
            by_window.setdefault(window, set()).add(cid)
            for m in (moment,) if moment else (window,):
                by_moment.setdefault(m, set()).add(cid)
        ids.append(cid)
    for w, s in by_window.items():
        dispatch.BY_WINDOW[w] = frozenset(s)
    for m, s in by_moment.items():
        dispatch.BY_MOMENT[m] = frozenset(s)
    ACTIVE.digest, ACTIVE.ids = key, tuple(ids)
    OM.clear()
    OM.update(ids)


def om_ids(key: str) -> list[str]:
    """Return the card ids of list ``key`` in list order (the Wutai deck before shuffling)."""
    return [row["id"] for row in TABLES[key]["cards"]]


OM: set[str] = set()
"""The card ids of the installed list (``is_om``)."""


WUTAI_DECK = "d1"
"""The Wutai deck's name in a peer game: the setup shuffles the base deck first and the
Wutai deck second (``setup.deal``, ``setup.wutai_state``) and no rule ever reshuffles, so
``PeerRng`` always numbers it ``d1`` (M-R133, docs/peer-mottainai.md §2)."""
_WUTAI_SLOT = f"?{WUTAI_DECK}."


def is_om(iid: str) -> bool:
    """Return whether a card is a Wutai (Om) card of the installed list. A peer game's
    placeholder answers by its deck: a card's back is public (M-R102), its face not."""
    return iid in OM or (iid[:1] == "?" and iid.startswith(_WUTAI_SLOT))  # hot: cheap test first


def provisional(key: str) -> list[str]:
    """Return the names of the list's cards that are not printed text (placeholders first)."""
    rows = TABLES[key]["cards"]
    return [r["name"] for r in rows if r["provenance"] != "printed"]


def rows_public(key: str) -> list[dict[str, Any]]:
    """Return the list as the views carry it (a custom list only; the builtin is known)."""
    return [
        {k: r[k] for k in ("id", "name", "material", "effect", "provenance")}
        for r in TABLES[key]["cards"]
    ]


def setup_summary(w: dict[str, Any]) -> dict[str, Any]:
    """Return what the setup event says of Wutai: the deck size and the provisional cards."""
    rows = TABLES[w["table"]]["cards"]
    return {
        "deck": len(w["deck"]),
        "cards": len(rows),
        "placeholders": sum(1 for r in rows if r["provenance"] == "placeholder"),
        "unconfirmed": sum(1 for r in rows if r["provenance"] in ("rules-text", "reported")),
        "draws": w["draws"],
        "works_end": w["works_end"],
        "leave": w["leave"],
    }
