"""The "Setup, as a replay sees it" sections of docs/rulings/<game>.md, checked.

Each section says how an engine sets a game up from the seed (docs/rng.md). This file
re-implements those sections from their text alone: its own HMAC-SHA256 streams,
``below`` and Fisher–Yates (it imports neither ``arbiter.core.rng`` nor an engine's setup
code), its own card lists (Mottainai's is read from the doc itself; Mot Coin's and
Momiji's data from the shipped JSON files or the manifest). It then compares the result,
field by field, with the state arbiter's own ``Table`` holds right after setup:

- for the example game of each engine, with the seed derived from the example's files
  (``game.json``, ``reveal/reveal.json``, the joins' ``entropy`` in ``reveal/signed.jsonl``),
  so nothing here depends on the example's current bytes;
- for other seat counts and options, with fixed inputs;
- and the worked example printed in each section (inputs of docs/rng.md's vectors).

It also checks what the sections say about randomness after setup: none for Mottainai
and Momiji (a replay with every later stream replaced ends in the same state), and for
Mot Coin exactly one reshuffle, at the entry that ends round 1.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import textwrap
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from arbiter.core import registry
from arbiter.core.publish import apply_record
from arbiter.core.table import Table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RULINGS = ROOT / "docs" / "rulings"
GAMES = ("mottainai", "motcoin", "momiji")
HEADING = "## Setup, as a replay sees it"

# The inputs of docs/rng.md's test vectors; a third seat gets 0x33 × 32.
VECTOR_SECRET = bytes(range(32))
VECTOR_GAME = "demo-game"
VECTOR_SEATS = ("alice", "bob", "carol", "dave", "erin")


def vector_entropy(index: int) -> bytes:
    return bytes([0x11 * (index + 1)]) * 32


# -- docs/rng.md, written out again --------------------------------------------------------


def derive_seed(secret: bytes, game_id: str, entropies: list[bytes]) -> bytes:
    message = b"arbiter-seed/1\x00" + game_id.encode() + b"\x00" + b"".join(entropies)
    return hmac.new(secret, message, hashlib.sha256).digest()


class Stream:
    """Chain entry ``entry``'s stream: counter-mode HMAC blocks, ``below``, ``shuffle``."""

    def __init__(self, seed: bytes, entry: int):
        self.key = hmac.new(seed, b"stream" + entry.to_bytes(8, "big"), hashlib.sha256).digest()
        self.buffer = b""
        self.block = 0

    def take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += hmac.new(
                self.key, self.block.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self.block += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def below(self, m: int) -> int:
        if m == 1:
            return 0
        k = (m - 1).bit_length()
        while True:
            value = int.from_bytes(self.take((k + 7) // 8), "big") & ((1 << k) - 1)
            if value < m:
                return value

    def shuffle(self, items: MutableSequence[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# -- the docs --------------------------------------------------------------------------------


def section(game: str) -> str:
    """Return the text of the setup section of docs/rulings/<game>.md."""
    text = (RULINGS / f"{game}.md").read_text(encoding="utf-8")
    assert text.count(HEADING + "\n") == 1, f"docs/rulings/{game}.md needs one {HEADING!r}"
    body = text.split(HEADING + "\n", 1)[1]
    end = re.search(r"^## ", body, flags=re.MULTILINE)
    return body if end is None else body[: end.start()]


def fenced_blocks(text: str) -> list[str]:
    """Return the contents of the ```text blocks of a section, in order, dedented."""
    found = re.findall(r"^( *)```text\n(.*?)^\1```$", text, flags=re.MULTILINE | re.DOTALL)
    return [textwrap.dedent(body) for _, body in found]


def mottainai_catalog() -> list[str]:
    """The 54 card ids in the order the Mottainai section lists them (its first block)."""
    ids = []
    for line in fenced_blocks(section("mottainai"))[0].splitlines():
        _, _, listed = line.partition(":")
        ids += listed.split()
    return ids


def builtin_json(game: str, name: str) -> dict[str, Any]:
    return json.loads((ROOT / "arbiter" / "games" / game / name).read_text(encoding="utf-8"))


def data_option(value: Any, game: str, name: str) -> dict[str, Any]:
    """An embedded data option as is, or the shipped file for ``"builtin"``."""
    return builtin_json(game, name) if value == "builtin" else value


# -- the documented setups ---------------------------------------------------------------------

HAND = 5
MOTCOIN_DICE = {3: 9, 4: 8, 5: 7}
STABLE_DICE = [4, 3, 2]
MOMIJI_COPIES = (5, 4, 3, 2)
MOMIJI_HAND = 6
MOMIJI_GARDEN = 4
CORNERS = {"left": "L", "right": "R", "both": "LR"}


def wutai_list(options: dict[str, Any]) -> list[str]:
    """The Wutai list's card ids in row order: the built-in file, or the embedded list."""
    table = options.get("wutai_cards", "builtin")
    rows = builtin_json("mottainai", "wutai.json") if table == "builtin" else table
    return [row["id"] for row in rows["cards"]]


def mottainai_setup(options: dict[str, Any], seats: list[str], seed: bytes) -> dict[str, Any]:
    """docs/rulings/mottainai.md, Setup: one or two decks, five cards each, task, floor;
    with Wutai (step 8) four base cards and the Wutai deck's top card each."""
    n = len(seats)
    ids = mottainai_catalog()
    deck = ids + [f"{i}#2" for i in ids] if n >= 4 else list(ids)
    stream = Stream(seed, 0)
    stream.shuffle(deck)
    shuffled = list(deck)
    size = HAND - 1 if options.get("wutai") else HAND
    hands = {seat: deck[size * k : size * (k + 1)] for k, seat in enumerate(seats)}
    del deck[: size * n]
    wutai = None
    if options.get("wutai"):
        wutai = wutai_list(options)
        stream.shuffle(wutai)  # the same stream, continuing
        for seat in seats:
            hands[seat].append(wutai.pop(0))
    tasks = {seat: deck[k] for k, seat in enumerate(seats)}
    floor = deck[n : 2 * n]
    del deck[: 2 * n]

    def name(instance: str) -> str:
        return instance.partition("#")[0].replace("-", " ")

    start = seats[min(range(n), key=lambda k: (name(floor[k]), k))]
    # Genesis runs on into turn 1's Morning: the start player's face-down task goes to the floor.
    floor.append(tasks[start])
    tasks[start] = None
    return {
        "shuffled": shuffled,
        "decks": 2 if n >= 4 else 1,
        "extended": bool(options.get("extended", False)),
        "teams": bool(options.get("teams", False)),
        "hands": hands,
        "tasks": tasks,
        "floor": floor,
        "deck": deck,
        "start": start,
        "wutai": wutai,
    }


def motcoin_setup(options: dict[str, Any], seats: list[str], seed: bytes) -> dict[str, Any]:
    """docs/rulings/motcoin.md, Setup: dice, Stable Coins, the draw pile, the first reveal."""
    table = data_option(options.get("cards", "builtin"), "motcoin", "cards.json")
    rows = {str(row["number"]): row for row in table["cards"]}
    n = len(seats)
    stables = [f"S{i}" for i in range(1, table["stable_coin"]["count"] + 1)]
    draw = [str(number) for number in range(1, 25)]
    Stream(seed, 0).shuffle(draw)
    shuffled = list(draw)
    low, high = sorted(draw[:2], key=int)
    del draw[:2]
    supply = stables[n:]
    stable = supply.pop(0) if rows[low].get("auction") == "double" and supply else None
    return {
        "shuffled": shuffled,
        "players": {
            seat: {
                "available": MOTCOIN_DICE[n] - len(STABLE_DICE),
                "holdings": [{"card": stables[k], "dice": list(STABLE_DICE)}],
            }
            for k, seat in enumerate(seats)
        },
        "dice_per_seat": MOTCOIN_DICE[n],
        "first": seats[0],
        "draw": draw,
        "discard": [high],
        "auction": low,
        "stable": stable,
        "stable_supply": supply,
        "hardforks": 1 if rows[low]["type"] == "hardfork" else 0,
    }


def momiji_sort_key(types: list[str]) -> Any:
    def key(code: str) -> tuple[int, int, str]:
        kind, _, rest = code.rpartition("-")
        return (types.index(kind), int(rest[0]), code)

    return key


def momiji_setup(options: dict[str, Any], seats: list[str], seed: bytes) -> dict[str, Any]:
    """docs/rulings/momiji.md, Setup: deck, hands, landscapes, objectives, garden."""
    data = data_option(options.get("data", "builtin"), "momiji", "data.json")
    n = len(seats)
    all_types = [row["id"] for row in data["types"]]
    types = all_types[: n + 2]
    key = momiji_sort_key(all_types)
    deck: list[str] = []
    for kind in types:
        cards: list[str] = []
        for value, copies in enumerate(MOMIJI_COPIES):
            rows = [r for r in data["acorns"] if r["type"] == kind and r["value"] == value]
            for row in rows:
                cards += [f"{kind}-{value}{CORNERS[row['corners']]}"] * row["count"]
            cards += [f"{kind}-{value}"] * (copies - sum(r["count"] for r in rows))
        deck += sorted(cards, key=key)
    stream = Stream(seed, 0)
    stream.shuffle(deck)
    shuffled = list(deck)
    hands = {seat: deck[MOMIJI_HAND * k : MOMIJI_HAND * (k + 1)] for k, seat in enumerate(seats)}
    del deck[: MOMIJI_HAND * n]
    if options.get("landscapes", "fixed") == "fixed":
        landscapes = {
            seat: list(data["panoramas"][k]["landscapes"]) for k, seat in enumerate(seats)
        }
    else:
        landscapes = {seat: [] for seat in seats}
        for name in "ABC":
            ids = [row["id"] for row in data["landscapes"] if row["set"] == name]
            stream.shuffle(ids)
            for k, seat in enumerate(seats):
                landscapes[seat].append(ids[k])
    pool = [row["id"] for row in data["objectives"] if row.get("type", types[0]) in types]
    drawn = list(pool)
    stream.shuffle(drawn)
    centre = drawn[: n + 2]
    garden = deck[:MOMIJI_GARDEN]
    del deck[:MOMIJI_GARDEN]
    return {
        "shuffled": shuffled,
        "types": types,
        "hands": hands,
        "landscapes": landscapes,
        "objectives": centre,
        "pool": pool,
        "garden": garden,
        "deck": deck,
        "acorns": data["starting_acorns"]["count"],
        "first": seats[0],
    }


SETUPS = {"mottainai": mottainai_setup, "motcoin": motcoin_setup, "momiji": momiji_setup}


# -- what arbiter does -----------------------------------------------------------------------


def is_join(record: dict[str, Any]) -> bool:
    return str(record.get("format", "")).startswith("arbiter.join") or (
        "entropy" in record and "actions" not in record
    )


@dataclass
class Example:
    """One example game's manifest, revealed secret and signed files (line n−1 = entry n)."""

    game: str
    manifest: dict[str, Any]
    secret: bytes
    records: list[dict[str, Any]]

    @property
    def seats(self) -> list[str]:
        return [s["seat"] for s in self.manifest["seats"]]

    def entropies(self) -> list[bytes]:
        """The joins' entropies in the manifest's seat order (docs/rng.md §2)."""
        if not self.manifest.get("join", True):
            return []
        joins = {r["seat"]: bytes.fromhex(r["entropy"]) for r in self.records if is_join(r)}
        return [joins[seat] for seat in self.seats]

    def seed(self) -> bytes:
        return derive_seed(self.secret, self.manifest["game"], self.entropies())


def load_example(game: str) -> Example:
    folder = EXAMPLES / game / "game"
    manifest = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    reveal = json.loads((folder / "reveal" / "reveal.json").read_text(encoding="utf-8"))
    lines = (folder / "reveal" / "signed.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    commitment = hashlib.sha256(b"arbiter-commit/1" + bytes.fromhex(reveal["secret"])).hexdigest()
    assert manifest["commitment"] == "sha256:" + commitment, "the revealed secret is not committed"
    return Example(game, manifest, bytes.fromhex(reveal["secret"]), records)


def replay(example: Example) -> Iterator[tuple[int, Table]]:
    """Yield (entry, table) from the entry that set the game up to the last one."""
    engine = registry.get(example.manifest["engine"]["name"])
    table = Table(example.manifest, engine, example.secret)
    table.genesis()
    if table.started:
        yield 0, table
    for seq, record in enumerate(example.records, start=1):
        was_started = table.started
        apply_record(table, seq, record)
        if table.started:
            yield seq, table
        assert was_started or table.started or is_join(record)


def setup_state(example: Example) -> tuple[int, dict[str, Any]]:
    """Return the entry that set the game up and the engine's state right after it."""
    entry, table = next(replay(example))
    return entry, table.engine.encode(table.state)


def fixed_input_state(
    game: str, seats: list[str], options: dict[str, Any]
) -> tuple[bytes, dict[str, Any]]:
    """Set a game up from the docs/rng.md vector inputs; return the seed and arbiter's state."""
    engine = registry.get(game)
    manifest = {
        "game": VECTOR_GAME,
        "engine": {"name": game, "version": engine.info.version},
        "options": options,
        "seats": [{"seat": s, "name": s} for s in seats],
        "join": True,
    }
    table = Table(manifest, engine, VECTOR_SECRET)
    table.genesis()
    entropies = [vector_entropy(k) for k in range(len(seats))]
    for seat, entropy in zip(seats, entropies, strict=True):
        table.join(seat, entropy)
    assert table.started
    seed = derive_seed(VECTOR_SECRET, VECTOR_GAME, entropies)
    return seed, engine.encode(table.state)


# -- field-by-field comparisons ---------------------------------------------------------------


def compare_mottainai(doc: dict[str, Any], state: dict[str, Any]) -> None:
    assert state["decks"] == doc["decks"]
    assert (state["extended"], state["teams"]) == (doc["extended"], doc["teams"])
    for seat, player in state["players"].items():
        assert player["hand"] == doc["hands"][seat], f"{seat}'s hand"
        assert player["task"] == doc["tasks"][seat], f"{seat}'s task"
        assert player["face_down"] == (doc["tasks"][seat] is not None)
        for zone in ("waiting", "helpers", "bench", "sales", "gallery", "gift_shop"):
            assert player[zone] == [], f"{seat}'s {zone}"
    assert state["floor"] == doc["floor"]
    assert state["deck"] == doc["deck"]
    assert state["start"] == state["current"] == doc["start"]
    assert state["turn"] == 1 and state["known"] == {}
    if doc["wutai"] is None:
        assert state.get("wutai") is None
    else:
        assert state["wutai"]["deck"] == doc["wutai"] and state["wutai"]["om"] == {}


def compare_motcoin(doc: dict[str, Any], state: dict[str, Any]) -> None:
    assert state["players"] == doc["players"]
    assert state["dice_per_seat"] == doc["dice_per_seat"]
    assert state["first"] == doc["first"] and state["round"] == 1
    assert state["draw"] == doc["draw"]
    assert state["discard"] == doc["discard"]
    assert state["auction"]["card"] == doc["auction"]
    assert state["auction"]["stable"] == doc["stable"]
    assert state["stable_supply"] == doc["stable_supply"]
    assert state["hardforks"] == doc["hardforks"]
    assert state["removed"] == []


def compare_momiji(doc: dict[str, Any], state: dict[str, Any]) -> None:
    assert state["types"] == doc["types"]
    for seat, player in state["players"].items():
        assert player["hand"] == doc["hands"][seat], f"{seat}'s hand"
        assert player["landscapes"] == doc["landscapes"][seat], f"{seat}'s landscapes"
        assert player["acorns"] == doc["acorns"]
        assert player["known"] == player["piles"] == player["objectives"] == []
    assert state["centre"] == doc["objectives"]
    assert state["garden"] == doc["garden"]
    assert state["deck"] == doc["deck"]
    assert state["discard"] == []
    assert state["turn"]["seat"] == doc["first"] and state["turn"]["number"] == 1


COMPARE = {"mottainai": compare_mottainai, "motcoin": compare_motcoin, "momiji": compare_momiji}


# -- the example games --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_setup_section_reproduces_the_example_game(game: str) -> None:
    """The documented setup, from the example's own seed, is the engine's state after setup."""
    example = load_example(game)
    entry, state = setup_state(example)
    joins = [seq for seq, r in enumerate(example.records, start=1) if is_join(r)]
    assert entry == (joins[-1] if example.manifest.get("join", True) else 0)
    doc = SETUPS[game](example.manifest["options"], example.seats, example.seed())
    COMPARE[game](doc, state)


@pytest.mark.parametrize("game", ["mottainai", "momiji"])
def test_no_random_draw_after_setup(game: str) -> None:
    """Mottainai and Momiji use only stream 0: other streams for later entries change nothing."""
    example = load_example(game)
    normal = swapped = None
    for seq, table in replay(example):
        if seq == len(example.records):
            normal = table.engine.encode(table.state)
    for seq, table in replay(example):
        table.seed = hashlib.sha256(b"another seed").digest()  # streams of later entries
        if seq == len(example.records):
            swapped = table.engine.encode(table.state)
    assert normal is not None and normal == swapped


def test_motcoin_round_two_reshuffle_follows_the_section() -> None:
    """Round 2: the round-1 discards, in discard order, shuffled with the ending entry's stream."""
    example = load_example("motcoin")
    doc = motcoin_setup(example.manifest["options"], example.seats, example.seed())
    pairs = [doc["shuffled"][i : i + 2] for i in range(0, 24, 2)]
    discards = [max(pair, key=int) for pair in pairs]
    states = [(seq, table.engine.encode(table.state)) for seq, table in replay(example)]
    change = [
        (before, seq, after)
        for (_, before), (seq, after) in pairwise(states)
        if before["round"] == 1 and after["round"] == 2
    ]
    if not change:
        pytest.skip("the example game ends in round 1: no reshuffle to check")
    [(before, seq, after)] = change
    assert before["discard"] == discards
    pile = list(discards)
    Stream(example.seed(), seq).shuffle(pile)
    assert after["discard"] == []
    turned = len(pile) - len(after["draw"])
    assert turned >= 1 and after["draw"] == pile[turned:]
    # From then on every card comes off the top of that pile: nothing else is random.
    for _, later in states:
        if later["round"] == 2:
            assert later["draw"] == pile[len(pile) - len(later["draw"]) :]


# -- other seat counts and options ----------------------------------------------------------------


def reversed_motcoin_table() -> dict[str, Any]:
    """The shipped table with its rows listed backwards and eight Stable Coins."""
    table = builtin_json("motcoin", "cards.json")
    table["cards"] = list(reversed(table["cards"]))
    table["stable_coin"] = {**table["stable_coin"], "count": 8}
    return table


def wutai_options(**given: str) -> dict[str, Any]:
    """The manifest options of a Wutai game (``--option wutai=yes`` and ``given``)."""
    return dict(registry.get("mottainai").parse_options({"wutai": "yes", **given}))


VARIANTS = [
    ("mottainai", 2, {"extended": False, "teams": False}),
    ("mottainai", 2, wutai_options()),
    ("mottainai", 4, wutai_options(teams="yes")),
    ("mottainai", 5, wutai_options(extended="yes")),
    ("mottainai", 3, {"extended": True, "teams": False}),
    ("mottainai", 4, {"extended": False, "teams": True}),
    ("mottainai", 5, {"extended": False, "teams": False}),
    ("motcoin", 3, {"cards": "builtin"}),
    ("motcoin", 4, {"cards": "builtin"}),
    ("motcoin", 5, {"cards": reversed_motcoin_table()}),
    ("momiji", 2, {"data": "builtin", "landscapes": "random"}),
    ("momiji", 3, {"data": "builtin", "landscapes": "fixed"}),
    ("momiji", 4, {"data": "builtin", "landscapes": "random"}),
]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    VARIANTS,
    ids=[f"{g}-{n}-{'-'.join(str(v) for v in o.values())[:24]}" for g, n, o in VARIANTS],
)
def test_setup_section_holds_for_every_seat_count_and_option(
    game: str, players: int, options: dict[str, Any]
) -> None:
    seats = list(VECTOR_SEATS[:players])
    seed, state = fixed_input_state(game, seats, options)
    COMPARE[game](SETUPS[game](options, seats, seed), state)


# -- the worked examples printed in the sections -------------------------------------------------


def codes(items: list[Any]) -> str:
    return " ".join(str(i) for i in items) if items else "-"


def mottainai_worked() -> str:
    seats = ["alice", "bob"]
    seed = derive_seed(VECTOR_SECRET, VECTOR_GAME, [vector_entropy(0), vector_entropy(1)])
    doc = mottainai_setup({}, seats, seed)
    lines = [
        f"seed             {seed.hex()}",
        f"shuffled[0:10]   {codes(doc['shuffled'][:10])}",
        f"shuffled[10:14]  {codes(doc['shuffled'][10:14])}",
        f"alice hand       {codes(doc['hands']['alice'])}",
        f"bob hand         {codes(doc['hands']['bob'])}",
        f"face-down tasks  alice {doc['shuffled'][10]}, bob {doc['shuffled'][11]}",
        f"floor            {codes(doc['shuffled'][12:14])}",
        f"start player     {doc['start']}",
        f"after setup      floor {codes(doc['floor'])}; deck {len(doc['deck'])} cards, "
        f"top {codes(doc['deck'][:3])}",
    ]
    return "\n".join(lines) + "\n"


def mottainai_wutai_worked() -> str:
    seats = ["alice", "bob"]
    seed = derive_seed(VECTOR_SECRET, VECTOR_GAME, [vector_entropy(0), vector_entropy(1)])
    doc = mottainai_setup(wutai_options(), seats, seed)
    down = {seat: task for seat, task in doc["tasks"].items() if task is not None}
    start_task = doc["floor"][-1]
    tasks = {seat: down.get(seat, start_task) for seat in seats}
    lines = [
        f"seed             {seed.hex()}",
        f"alice hand       {codes(doc['hands']['alice'])}",
        f"bob hand         {codes(doc['hands']['bob'])}",
        f"face-down tasks  alice {tasks['alice']}, bob {tasks['bob']}",
        f"floor            {codes(doc['floor'][:2])}",
        f"start player     {doc['start']}",
        f"after setup      floor {codes(doc['floor'])}; deck {len(doc['deck'])} cards, "
        f"top {codes(doc['deck'][:3])}",
        f"wutai deck       {len(doc['wutai'])} cards, top {codes(doc['wutai'][:3])}",
    ]
    return "\n".join(lines) + "\n"


def motcoin_worked() -> str:
    seats = ["alice", "bob", "carol"]
    seed = derive_seed(VECTOR_SECRET, VECTOR_GAME, [vector_entropy(k) for k in range(3)])
    doc = motcoin_setup({"cards": "builtin"}, seats, seed)
    lines = [
        f"seed             {seed.hex()}",
        f"draw pile        {codes(doc['shuffled'])}",
        f"first reveal     {codes(doc['shuffled'][:2])}: No.{doc['auction']} is auctioned, "
        f"No.{doc['discard'][0]} is discarded",
        f"Stable Coins     alice S1, bob S2, carol S3; supply {codes(doc['stable_supply'])}",
        f"auction stable   {doc['stable'] or '-'}",
    ]
    return "\n".join(lines) + "\n"


def momiji_worked() -> str:
    seats = ["alice", "bob"]
    seed = derive_seed(VECTOR_SECRET, VECTOR_GAME, [vector_entropy(0), vector_entropy(1)])
    fixed = momiji_setup({"landscapes": "fixed"}, seats, seed)
    drawn = momiji_setup({"landscapes": "random"}, seats, seed)
    # Hands as a state file shows them: in card order.
    order = momiji_sort_key(fixed["types"])
    hands = {seat: sorted(fixed["hands"][seat], key=order) for seat in seats}
    # The garden and the objectives as a state file shows them too.
    garden = sorted(fixed["garden"], key=order)

    def shown(setup: dict[str, Any]) -> list[str]:
        return [o for o in setup["pool"] if o in setup["objectives"]]

    lines = [
        f"seed             {seed.hex()}",
        f"types            {codes(fixed['types'])}",
        f"shuffled[0:6]    {codes(fixed['shuffled'][:6])}",
        f"alice hand       {codes(hands['alice'])}",
        f"bob hand         {codes(hands['bob'])}",
        f"garden           {codes(garden)}",
        f"deck top         {codes(fixed['deck'][:3])} ({len(fixed['deck'])} cards)",
        f"objectives       {codes(shown(fixed))}",
        "landscapes=random:",
        f"  alice          {codes(drawn['landscapes']['alice'])}",
        f"  bob            {codes(drawn['landscapes']['bob'])}",
        f"  objectives     {codes(shown(drawn))}",
    ]
    return "\n".join(lines) + "\n"


WORKED = {"mottainai": mottainai_worked, "motcoin": motcoin_worked, "momiji": momiji_worked}
WORKED_SEATS = {"mottainai": 2, "motcoin": 3, "momiji": 2}
WORKED_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "mottainai": [{"extended": False, "teams": False}, wutai_options()],
    "motcoin": [{"cards": "builtin"}],
    "momiji": [
        {"data": "builtin", "landscapes": "fixed"},
        {"data": "builtin", "landscapes": "random"},
    ],
}


@pytest.mark.parametrize("game", [*GAMES, "mottainai-wutai"])
def test_worked_example_in_the_section_is_recomputed(game: str) -> None:
    """The section's worked-example block is what the documented procedure gives."""
    blocks = fenced_blocks(section(game.removesuffix("-wutai")))
    expected = mottainai_wutai_worked() if game == "mottainai-wutai" else WORKED[game]()
    assert expected in blocks, (
        f"docs/rulings/{game}.md: the worked example should read:\n{expected}"
    )


@pytest.mark.parametrize("game", GAMES)
def test_worked_example_inputs_give_arbiter_the_same_setup(game: str) -> None:
    seats = list(VECTOR_SEATS[: WORKED_SEATS[game]])
    for options in WORKED_OPTIONS[game]:
        seed, state = fixed_input_state(game, seats, options)
        COMPARE[game](SETUPS[game](options, seats, seed), state)


# -- card names ----------------------------------------------------------------------------------


def documented_name(card_id: str) -> str:
    """docs/rulings/mottainai.md, "Card names": the base id's words, capitalised but "of"."""
    words = card_id.partition("#")[0].split("-")
    return " ".join(w if w == "of" else w[:1].upper() + w[1:] for w in words)


def test_card_names_are_as_the_section_says() -> None:
    from arbiter.games.mottainai import narrate
    from arbiter.games.mottainai.cards import CARDS, INSTANCES

    text = " ".join(section("mottainai").split())
    for quoted in (
        '"Go Set"',
        '"Deck of Cards"',
        '"Om 15"',
        '("Bell [METAL]")',
        '("Bowl (CLAY 3)")',
        '("SMITH")',
    ):
        assert quoted in text, quoted
    base = {i: INSTANCES[i].name for c in CARDS for i in (c, f"{c}#2")}
    assert len(base) == 108  # both copies of the 54 cards
    assert all(name == documented_name(i) for i, name in base.items())
    assert documented_name("om-15") == "Om 15"
    wutai = builtin_json("mottainai", "wutai.json")["cards"]
    assert all(row["name"] == documented_name(row["id"]) for row in wutai)
    assert narrate.floor_card("bell#2") == "Bell [METAL]" and narrate.task("bell") == "SMITH"
    assert narrate.WORK["bowl"] == "Bowl (CLAY 3)"
    assert (narrate.name("deck-of-cards"), narrate.name("go-set")) == ("Deck of Cards", "Go Set")
