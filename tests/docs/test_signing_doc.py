"""docs/signing.md, checked: the namespaces, the allowed_signers recipe, and what the
referee signs for a timeout record and for ``public/sealed.json``, byte for byte.

The page's two worked examples are re-checked from the page alone (``hashlib``, the
``rfc8785`` package, and an SSHSIG check written here from OpenSSH's PROTOCOL.sshsig with
the ``cryptography`` package: nothing from ``arbiter.core`` on that side), then against
arbiter (its signer gives the page's signatures from the page's signed bytes, its checks
accept the page's files), and a fresh game made the way the page says is checked by the
same rules and by ``ssh-keygen`` with the page's own recipe.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "signing.md"

# The inputs the page names for its example game (made by ``doc_game``).
GAME_ID = "demo-game"
CREATED = "2026-01-01T00:00:00Z"
TIMED_OUT = "2026-01-05T00:00:00Z"
REFEREE_SEED = b"docs: the referee".ljust(32, b".")


def seat_seed(seat: str) -> bytes:
    return f"docs: {seat}".encode().ljust(32, b".")


# -- the page --------------------------------------------------------------------------------

_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def block(tag: str, holding: str = "") -> str:
    """Return the body of the page's one fenced block whose info string is ``tag`` (and
    whose text holds ``holding``)."""
    found = [
        m.group(2)
        for m in _FENCE.finditer(DOC.read_text())
        if m.group(1).strip() == tag and holding in m.group(2)
    ]
    assert len(found) == 1, f"docs/signing.md needs exactly one ```{tag} block with {holding!r}"
    return found[0]


def values(tag: str) -> dict[str, str]:
    """Return the ``name   value`` lines of a ```text block (names of one or two words)."""
    out = {}
    for line in block(tag).splitlines():
        name, value = re.fullmatch(r"(\S+(?: \S+)?)\s{2,}(\S.*)", line).groups()  # type: ignore[union-attr]
        out[name] = value
    return out


def example(kind: str) -> tuple[dict[str, Any], dict[str, str]]:
    """Return a worked example: the JSON file and its ``text`` block of values."""
    tag = {"timeout": "timeout", "sealed": "sealed"}[kind]
    text = block(f"json {tag}-record" if kind == "timeout" else f"json {tag}-index")
    return json.loads(text), values(f"text {tag}-signed")


# -- SSHSIG, written out from PROTOCOL.sshsig --------------------------------------------------


def _string(data: bytes, at: int) -> tuple[bytes, int]:
    (size,) = struct.unpack(">I", data[at : at + 4])
    return data[at + 4 : at + 4 + size], at + 4 + size


def _wire(value: bytes) -> bytes:
    return struct.pack(">I", len(value)) + value


def sshsig_verify(armored: str, message: bytes, key_line: str, namespace: str) -> None:
    """Check an armored Ed25519 SSHSIG over ``message``; raise AssertionError if it fails."""
    lines = armored.strip().splitlines()
    assert (
        lines[0] == "-----BEGIN SSH SIGNATURE-----" and lines[-1] == "-----END SSH SIGNATURE-----"
    )
    blob = base64.b64decode("".join(lines[1:-1]))
    assert blob[:6] == b"SSHSIG" and struct.unpack(">I", blob[6:10]) == (1,)
    public, at = _string(blob, 10)
    signed_namespace, at = _string(blob, at)
    reserved, at = _string(blob, at)
    hash_name, at = _string(blob, at)
    signature, at = _string(blob, at)
    assert at == len(blob)
    assert public == base64.b64decode(key_line.split()[1]), "signed by another key"
    assert signed_namespace == namespace.encode(), "another namespace"
    assert hash_name == b"sha512"
    algo, rest = _string(signature, 0)
    raw, _ = _string(signature, rest)
    assert algo == b"ssh-ed25519"
    key_algo, k = _string(public, 0)
    key_bytes, _ = _string(public, k)
    assert key_algo == b"ssh-ed25519"
    to_sign = (
        b"SSHSIG"
        + _wire(namespace.encode())
        + _wire(reserved)
        + _wire(hash_name)
        + _wire(hashlib.sha512(message).digest())
    )
    Ed25519PublicKey.from_public_bytes(key_bytes).verify(raw, to_sign)  # raises if wrong


def unsigned(obj: dict[str, Any]) -> bytes:
    return rfc8785.dumps({k: v for k, v in obj.items() if k != "signature"})


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


# -- the page's namespaces and examples, from the page alone -------------------------------------


def test_the_namespace_table_names_every_namespace_arbiter_signs_in() -> None:
    from arbiter.core import signing

    section = DOC.read_text().split("## Namespaces", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"\| `(arbiter-[a-z-]+)` \|", section))
    used = {v for k, v in vars(signing).items() if k.startswith("NAMESPACE_")}
    assert listed == used


@pytest.mark.parametrize("kind", ["timeout", "sealed"])
def test_the_worked_example_holds_from_the_page_alone(kind: str) -> None:
    obj, said = example(kind)
    signed = unsigned(obj)
    assert said["signed bytes"].encode() == signed
    assert said["sha512"] == hashlib.sha512(signed).hexdigest()
    assert said["namespace"] == f"arbiter-{kind}"
    sshsig_verify(obj["signature"], signed, said["referee key"], said["namespace"])
    # Any other byte signed, or another namespace, fails.
    with pytest.raises(Exception):  # noqa: B017 (cryptography's InvalidSignature or ours)
        sshsig_verify(obj["signature"], signed + b" ", said["referee key"], said["namespace"])
    with pytest.raises(AssertionError):
        sshsig_verify(obj["signature"], signed, said["referee key"], "arbiter-move")
    if kind == "timeout":
        # Stored canonical, one line; the chain names it by the digest of those bytes.
        assert block("json timeout-record").encode() == rfc8785.dumps(obj) + b"\n"
        assert said["entry digest"] == sha256(rfc8785.dumps(obj))


@pytest.mark.parametrize("kind", ["timeout", "sealed"])
def test_arbiter_makes_and_accepts_the_worked_examples(kind: str, tmp_path: Path) -> None:
    from arbiter.core import schemas, signing
    from arbiter.core.canonical import digest

    obj, said = example(kind)
    namespace = {"timeout": signing.NAMESPACE_TIMEOUT, "sealed": signing.NAMESPACE_SEALED}[kind]
    schemas.validate({"timeout": "timeout", "sealed": "sealed-index"}[kind], obj, kind)
    signing.verify(obj, said["referee key"], namespace)
    if kind == "timeout":
        assert digest(obj) == said["entry digest"]
    # The page's inputs give the page's referee key, and arbiter's signer gives the page's
    # signature from the page's signed bytes (Ed25519 is deterministic).
    key, _ = signing.keygen("referee", tmp_path, seed=REFEREE_SEED)
    assert signing.public_key_of(key) == said["referee key"]
    assert signing.sign(json.loads(said["signed bytes"]), key, namespace) == obj["signature"]


# -- a fresh game made as the page says ---------------------------------------------------------


@pytest.fixture(scope="module")
def doc_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's example game, made again: sealed Mottainai, --no-join, a 72h deadline
    with 24h grace, bob timed out at the page's time; then alice moves (a receipt)."""
    from arbiter.core.canonical import pretty
    from arbiter.core.player import load_state, make_move
    from arbiter.core.referee import new_game, submit, timeout
    from arbiter.core.signing import keygen

    base = tmp_path_factory.mktemp("doc-game")
    keys = {s: keygen(s, base / "keys", seed=seat_seed(s))[0] for s in ("alice", "bob")}
    root = base / GAME_ID
    new_game(
        root,
        "mottainai",
        [(s, str(k) + ".pub") for s, k in keys.items()],
        {},
        join=False,
        game_id=GAME_ID,
        created=CREATED,
        secret=bytes(range(32)),
        referee_seed=REFEREE_SEED,
        sealed=True,
        deadline=72 * 3600,
        grace=24 * 3600,
    )
    assert timeout(root, now=TIMED_OUT).timed_out is not None
    state = load_state(root / "players" / "alice" / "state.json.age", keys["alice"])
    move = make_move(state, keys["alice"], [state["legal"][0]])
    (base / "move.json").write_bytes(pretty(move))
    submit(root, pretty(move), "move.json", now="2026-01-05T01:00:00Z")
    return root


def test_arbiter_signs_a_fresh_game_by_the_pages_rules(doc_game: Path) -> None:
    manifest = json.loads((doc_game / "game.json").read_text())
    referee = manifest["referee"]
    assert referee == values("text timeout-signed")["referee key"]
    chain = [json.loads(line) for line in (doc_game / "chain.jsonl").read_text().splitlines()]
    record = json.loads((doc_game / "referee" / "signed.jsonl").read_text().splitlines()[0])
    assert chain[1]["kind"] == "timeout" and chain[1]["digest"] == sha256(rfc8785.dumps(record))
    assert record["after"] == chain[0]["hash"] and record["since"] == CREATED
    assert record["time"] == chain[1]["time"] == TIMED_OUT
    sshsig_verify(record["signature"], unsigned(record), referee, "arbiter-timeout")
    index = json.loads((doc_game / "public" / "sealed.json").read_text())
    assert index["head"] == chain[-1]["hash"] and index["seq"] == len(chain) - 1
    for name, listed in index["files"].items():
        assert listed == sha256((doc_game / name).read_bytes())
    sshsig_verify(index["signature"], unsigned(index), referee, "arbiter-sealed")
    receipt = json.loads((doc_game / "referee" / "receipts" / "2.json").read_text())
    sshsig_verify(receipt["signature"], unsigned(receipt), referee, "arbiter-receipt")


@pytest.mark.skipif(
    not (shutil.which("jq") and shutil.which("ssh-keygen")), reason="jq, ssh-keygen"
)
def test_the_pages_recipe_checks_seats_and_referee_with_ssh_keygen(
    doc_game: Path, tmp_path: Path
) -> None:
    recipe = block("sh", "jq -r").splitlines()
    # Step 3 of the recipe: from its first jq line to the end of the last one it continues.
    first = next(i for i, line in enumerate(recipe) if line.startswith("jq -r"))
    last = max(i for i, line in enumerate(recipe) if re.search(r"game\.json >>? allowed_", line))
    shell = "\n".join(recipe[first : last + 1])
    shutil.copy(doc_game / "game.json", tmp_path / "game.json")
    subprocess.run(["sh", "-c", shell], cwd=tmp_path, check=True)
    allowed = (tmp_path / "allowed_signers").read_text()
    assert allowed.count("\n") == 3 and 'referee namespaces="arbiter-receipt,' in allowed
    move = json.loads((doc_game.parent / "move.json").read_text())
    files: list[tuple[dict[str, Any], str, str]] = [
        (move, "alice", "arbiter-move"),
        (
            json.loads((doc_game / "referee" / "receipts" / "2.json").read_text()),
            "referee",
            "arbiter-receipt",
        ),
        (
            json.loads((doc_game / "referee" / "signed.jsonl").read_text().splitlines()[0]),
            "referee",
            "arbiter-timeout",
        ),
        (
            json.loads((doc_game / "public" / "sealed.json").read_text()),
            "referee",
            "arbiter-sealed",
        ),
    ]
    for obj, who, namespace in files:
        (tmp_path / "sig").write_text(obj["signature"])
        run = subprocess.run(
            [
                "ssh-keygen",
                "-Y",
                "verify",
                "-f",
                "allowed_signers",
                "-I",
                who,
                "-n",
                namespace,
                "-s",
                "sig",
            ],
            cwd=tmp_path,
            input=unsigned(obj),
            capture_output=True,
            check=False,
        )
        assert run.returncode == 0, (namespace, run.stderr)
        # A seat cannot pass for the referee, nor the referee for a seat.
        other = "bob" if who == "referee" else "referee"
        run = subprocess.run(
            [
                "ssh-keygen",
                "-Y",
                "verify",
                "-f",
                "allowed_signers",
                "-I",
                other,
                "-n",
                namespace,
                "-s",
                "sig",
            ],
            cwd=tmp_path,
            input=unsigned(obj),
            capture_output=True,
            check=False,
        )
        assert run.returncode != 0, namespace
