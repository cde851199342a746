"""Files sealed with age to SSH keys, for games played in a shared repository.

A sealed game (``arbiter new --sealed``) writes each seat's state file and log as age files
encrypted to that seat's SSH key (age's ``ssh-ed25519`` and ``ssh-rsa`` recipients, via the
``pyrage`` binding), and players may seal their move files to the referee's key. Anyone
can read the age header without a key: it names the recipient by a 4-byte tag of its SSH
key, which is how ``arbiter verify`` checks who a file is sealed to (docs/sealing.md).

age does not hide a file's length, and the length of a seat's state file depends on the
cards in its hand. Before sealing, a seat's file is padded with newlines to a bucket
(``padded_size``) so its size says far less about what it holds; the padding is trailing
whitespace, so what ``age -d`` prints is still the same JSON or Markdown, and
``unpad`` gives back the exact bytes.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path
from typing import Any

from arbiter.core.errors import MalformedInput, UsageError, WrongGame
from arbiter.core.safeio import read_input, shown

MAGIC = b"age-encryption.org/v1\n"
SEALED_SUFFIX = ".age"
# age recipients that an SSH key can be (age's own docs: ssh-ed25519 and ssh-rsa).
RECIPIENT_TYPES = ("ssh-ed25519", "ssh-rsa")
# Padding buckets: 16 KiB steps below 512 KiB, then steps of 1/16 of the size (at most
# 6.25% overhead). A seat's state file varies by up to a few KiB with its hand and its
# legal decisions; 4 KiB steps let 4% of Momiji's redrawn positions change bucket, 16 KiB
# steps 0.04% (docs/sealing.md, "Length").
_BLOCK = 16384
_HEADER_LIMIT = 64 * 1024
_STANZA = re.compile(rb"-> (\S+)((?: \S+)*)")


def is_sealed(data: bytes) -> bool:
    """Whether ``data`` is an age file (binary format: it starts with the version line)."""
    return data.startswith(MAGIC)


def sealed_name(path: Path) -> Path:
    """Return the sealed file's path: ``state.json`` → ``state.json.age``."""
    return path.with_name(path.name + SEALED_SUFFIX)


def recipient_problem(key_line: str) -> str | None:
    """Return why ``key_line`` cannot be an age recipient, or None when it can."""
    kind = key_line.split()[0] if key_line.split() else ""
    if kind not in RECIPIENT_TYPES:
        return f"a {kind or 'blank'} key cannot receive age files (only ssh-ed25519 and ssh-rsa)"
    return None


def _recipient(key_line: str) -> Any:
    from pyrage import RecipientError, ssh

    problem = recipient_problem(key_line)
    if problem is not None:
        raise UsageError(f"{problem}: use an Ed25519 or RSA key")
    try:
        return ssh.Recipient.from_str(" ".join(key_line.split()[:2]))
    except RecipientError:
        raise UsageError("the key is not a valid SSH public key line") from None


def padded_size(size: int) -> int:
    """Return the bucket a file of ``size`` bytes is padded to before sealing."""
    block = max(_BLOCK, 1 << max(size.bit_length() - 5, 0))
    return -(-max(size, 1) // block) * block


def pad(data: bytes) -> bytes:
    """Pad a file that ends in exactly one newline with more newlines, up to its bucket."""
    if not data.endswith(b"\n") or data.endswith(b"\n\n"):
        raise ValueError("only a file ending in exactly one newline can be padded")
    return data + b"\n" * (padded_size(len(data)) - len(data))


def unpad(data: bytes) -> bytes:
    """Undo ``pad``: keep one final newline (a file that was not padded is unchanged)."""
    stripped = data.rstrip(b"\n")
    return stripped + b"\n" if stripped != data else data


def seal(data: bytes, keys: list[str]) -> bytes:
    """Encrypt ``data`` with age to each SSH public key line in ``keys``."""
    import pyrage

    return bytes(pyrage.encrypt(data, [_recipient(key) for key in keys]))


def load_identity(path: Path) -> Any:
    """Read an OpenSSH private key as an age identity, or say what to use instead."""
    from pyrage import IdentityError, ssh

    data = read_input(path, f"key {shown(path)}", limit=64 * 1024)
    if data.lstrip().startswith((b"ssh-", b"ecdsa-", b"sk-")):
        raise UsageError(
            f"{shown(path)} is a public key, which cannot decrypt (nor can ssh-agent): "
            "pass your private key file with --identity"
        )
    try:
        return ssh.Identity.from_buffer(data)
    except IdentityError as exc:
        if "decrypted" in str(exc):
            raise UsageError(
                f"{shown(path)} is protected by a passphrase, which age cannot ask for here: "
                "pass an unprotected copy with --identity (ssh-keygen -p -N '' -f COPY)"
            ) from None
        raise UsageError(
            f"{shown(path)} is not an OpenSSH Ed25519 or RSA private key: pass one with --identity"
        ) from None


def unseal(data: bytes, identity: Path, what: str, *, for_referee: bool = False) -> bytes:
    """Decrypt an age file with the private SSH key at ``identity``.

    A file sealed to another key is the sender's mistake (``WrongGame`` for the referee,
    a usage error for a player); a file that is not valid age is malformed.
    """
    import pyrage

    header(data, what)  # a damaged header is reported as such, not as a wrong key
    key = load_identity(identity)
    try:
        return bytes(pyrage.decrypt(data, [key]))
    except pyrage.DecryptError as exc:
        if "No matching keys" in str(exc):
            if for_referee:
                raise WrongGame(
                    f"{what} is sealed to another key, not to this game's referee: "
                    "seal it with `arbiter move --seal` from your copy of this game"
                ) from None
            raise UsageError(
                f"{what} is not sealed to {shown(identity)}: use the private key of the seat "
                "it is for"
            ) from None
        raise MalformedInput(f"{what} is a damaged age file: ask for a fresh copy") from None


def header(data: bytes, what: str) -> list[tuple[str, list[str]]]:
    """Parse the age header (no key needed): return each stanza's type and arguments."""
    if not is_sealed(data):
        raise MalformedInput(f"{what} is not an age file (it must start with {MAGIC[:-1]!r})")
    end = data.find(b"\n---", 0, _HEADER_LIMIT)
    if end < 0:
        raise MalformedInput(f"{what} has no complete age header")
    stanzas: list[tuple[str, list[str]]] = []
    for line in data[len(MAGIC) : end].split(b"\n"):
        match = _STANZA.fullmatch(line)
        if match:
            args = match.group(2).decode("ascii", "replace").split()
            stanzas.append((match.group(1).decode("ascii", "replace"), args))
    if not stanzas:
        raise MalformedInput(f"{what} names no recipient in its age header")
    return stanzas


def key_tag(key_line: str) -> str:
    """Return age's tag for an SSH key: base64 of the first 4 bytes of SHA-256 of the key."""
    blob = base64.b64decode(key_line.split()[1])
    return base64.b64encode(hashlib.sha256(blob).digest()[:4]).decode().rstrip("=")


def recipients(data: bytes, what: str) -> list[tuple[str, str]]:
    """Return (type, tag) of every SSH recipient in the header; age's random "grease"
    stanzas, which stand for no one, are left out."""
    found = []
    for kind, args in header(data, what):
        if kind.endswith("-grease"):
            continue
        found.append((kind, args[0] if args else ""))
    return found


def sealed_only_to(data: bytes, key_line: str, what: str) -> bool:
    """Whether the file is sealed to exactly one recipient, and that is ``key_line``."""
    return recipients(data, what) == [(key_line.split()[0], key_tag(key_line))]
