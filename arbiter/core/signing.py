"""OpenSSH signatures (SSHSIG) over canonical bytes, interchangeable with ``ssh-keygen -Y``.

A signed file is a JSON object whose ``signature`` field holds an armored SSHSIG
(``-----BEGIN SSH SIGNATURE-----``) over the RFC 8785 bytes of the object *without*
that field, hash sha512, namespace ``arbiter-move`` or ``arbiter-join``
(DESIGN.md "Signatures", docs/signing.md). Public keys are handled as normalised
``"<algo> <base64>"`` lines: the comment is dropped so keys compare as plain strings.

``cryptography`` and ``sshsig`` are imported inside the functions that need them,
because every CLI command imports this module and most never sign or verify.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import errno
import functools
import hashlib
import os
import re
import shutil
import struct
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arbiter.core.canonical import canonical
from arbiter.core.errors import BadSignature, UsageError

NAMESPACE_MOVE = "arbiter-move"
NAMESPACE_JOIN = "arbiter-join"
# A join's entropy comes from a deterministic signature in this namespace (docs/rng.md).
NAMESPACE_ENTROPY = "arbiter-entropy"
# The referee signs a receipt for every accepted file (docs/receipts.md).
NAMESPACE_RECEIPT = "arbiter-receipt"
# The referee signs the index of a sealed game's per-seat files (docs/sealing.md).
NAMESPACE_SEALED = "arbiter-sealed"
# The referee signs each timeout it records (docs/tournaments.md).
NAMESPACE_TIMEOUT = "arbiter-timeout"
# The life of a long game (docs/game-life.md): one namespace per file kind, so that a
# signature made for one role can never be replayed in another.
NAMESPACE_RESIGN = "arbiter-resign"
NAMESPACE_PROPOSE_END = "arbiter-propose"
NAMESPACE_ANSWER = "arbiter-answer"
NAMESPACE_HANDOVER = "arbiter-handover"
NAMESPACE_APPOINT = "arbiter-appoint"
# Clocks (docs/clocks.md): a seat's leave file, and the referee's automatic leave record.
NAMESPACE_LEAVE = "arbiter-leave"
NAMESPACE_LEAVE_AUTO = "arbiter-autoleave"
NAMESPACE_TAKEBACK = "arbiter-takeback"
# The referee's record that a takeback took effect (docs/game-life.md §4).
NAMESPACE_TAKEBACK_RECORD = "arbiter-takeback-record"
NAMESPACE_ORDERS = "arbiter-orders"
NAMESPACE_ORDER_STEP = "arbiter-order-step"
# The organiser signs every line of a tournament's record (docs/tournament-record.md).
NAMESPACE_TOURNAMENT = "arbiter-tournament"
# The referee deals a game of a duplicate round (docs/duplicate.md).
NAMESPACE_DEAL = "arbiter-deal"

# Key types the sshsig package can verify; others (ecdsa, sk-*) would be accepted into a
# manifest and then fail every signature check, so they are refused up front. Both sign
# deterministically (Ed25519; RSA PKCS#1 v1.5), which unsteerable joins rely on: ECDSA and
# security-key signatures are randomized and could not derive one join per game.
SUPPORTED_KEY_TYPES = ("ssh-ed25519", "ssh-rsa")
# ssh-keygen -Y verify accepts both; arbiter itself always signs with sha512.
_HASHES = (b"sha512", b"sha256")
_KEY_TYPE = re.compile(r"(ssh|ecdsa|sk)-[A-Za-z0-9@.-]+")
# Principals and namespaces are ssh-keygen patterns: '*', '?', '!', ',' and quotes
# would change their meaning, and a leading space or quote would break the line.
_NAME = re.compile(r"[A-Za-z0-9._@+-]+")
_PRIVATE_HEADER = b"-----BEGIN OPENSSH PRIVATE KEY-----"


def signed_bytes(obj: dict[str, Any]) -> bytes:
    """Return the canonical bytes of ``obj`` without its ``signature`` field."""
    return canonical({key: value for key, value in obj.items() if key != "signature"})


def keygen(
    name: str, directory: Path, comment: str | None = None, seed: bytes | None = None
) -> tuple[Path, Path]:
    """Write an unencrypted Ed25519 pair ``name``, ``name.pub`` (comment defaults to name).

    ``seed`` (32 bytes) makes the key reproducible: only for demos and golden examples,
    whose players must be the same on every run.

    Crash-safe: each file appears whole or not at all (written beside, then linked into
    place), the private key first. A run killed between the two leaves the private key
    alone; the same command then finishes the pair from it (``finish_pair``) instead of
    refusing, and makes no new key.
    """
    if not name or name in (".", "..") or "/" in name or os.sep in name or name[0] == "-":
        raise UsageError(f"key name {name!r} is not a plain file name: use a name like 'alice'")
    directory = Path(directory).expanduser()
    private_path, public_path = directory / name, directory / f"{name}.pub"
    if finish_pair(name, directory, comment) is not None:
        return private_path, public_path
    for path in (private_path, public_path):
        if path.exists() or path.is_symlink():
            raise UsageError(f"{path} already exists: choose another name or move the old key")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(
            f"cannot create {directory} ({exc.strerror}): choose another directory"
        ) from None

    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = (
        Ed25519PrivateKey.generate()
        if seed is None
        else Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seed).digest())
    )
    pem = private.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, ser.NoEncryption())
    _write_new(private_path, pem, 0o600)
    try:
        _write_new(public_path, _public_line(private, name, comment), 0o644)
    except UsageError:
        private_path.unlink(missing_ok=True)
        raise
    return private_path, public_path


def finish_pair(name: str, directory: Path, comment: str | None = None) -> Path | None:
    """Write ``name.pub`` from ``name`` when a killed ``keygen`` left the private key
    alone (an unencrypted Ed25519 key, as keygen writes); return its path, else ``None``.

    Also removes the temporary files a killed keygen left beside them.
    """
    directory = Path(directory).expanduser()
    private_path, public_path = directory / name, directory / f"{name}.pub"
    _remove_leftovers(directory, (name, f"{name}.pub"))
    if public_path.exists() or public_path.is_symlink():
        return None
    if not private_path.is_file() or private_path.is_symlink():
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_ssh_private_key

    try:
        private = load_ssh_private_key(private_path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return None  # not a key keygen wrote (encrypted, another format): leave it be
    if not isinstance(private, Ed25519PrivateKey):
        return None
    _write_new(public_path, _public_line(private, name, comment), 0o644)
    return public_path


def _public_line(private: Any, name: str, comment: str | None) -> bytes:
    from cryptography.hazmat.primitives import serialization as ser

    public = private.public_key().public_bytes(ser.Encoding.OpenSSH, ser.PublicFormat.OpenSSH)
    # A comment spanning lines would break the authorized_keys line.
    label = " ".join((name if comment is None else comment).split())
    return public + f" {label}".rstrip().encode() + b"\n"


def _remove_leftovers(directory: Path, names: tuple[str, ...]) -> None:
    """Remove ``_write_new``'s temporary files for ``names`` (a killed run's)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if any(
            entry.name.startswith(f".{n}.") and _LEFTOVER.fullmatch(entry.name[len(n) + 2 :])
            for n in names
        ) and entry.is_file(follow_symlinks=False):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


_LEFTOVER = re.compile(r"[A-Za-z0-9_]{8}\.keytmp")


def _write_new(path: Path, data: bytes, mode: int) -> None:
    """Create ``path`` with ``mode`` whole or not at all, failing if it exists.

    The bytes go to a temporary file beside it (fsynced), which is then hard-linked to
    ``path``: ``link`` fails if ``path`` exists, closing the race as ``O_EXCL`` would.
    Where the file system has no hard links, ``O_EXCL`` creation is the fallback.
    """
    from arbiter.core.gamedir import fsync_dir, write_point

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".keytmp", dir=path.parent)
    except OSError as exc:
        raise UsageError(
            f"cannot write {path} ({exc.strerror}): choose another directory"
        ) from None
    try:
        try:
            os.fchmod(fd, mode)  # the umask must not loosen or tighten what ssh expects
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        write_point()  # the temporary file is written, the key not in place yet
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise UsageError(
                f"cannot write {path} (File exists): choose another directory"
            ) from None
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                raise UsageError(
                    f"cannot write {path} ({exc.strerror}): choose another directory"
                ) from None
            _write_exclusive(path, data, mode)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    write_point()  # in place, the folder not synced yet
    fsync_dir(path.parent)


def _write_exclusive(path: Path, data: bytes, mode: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except OSError as exc:  # FileExistsError too: another process just made it
        raise UsageError(
            f"cannot write {path} ({exc.strerror}): choose another directory"
        ) from None
    try:
        os.fchmod(fd, mode)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def read_public_key(text_or_path: str) -> str:
    """Return the normalised ``"<algo> <base64>"`` form of a key line or ``.pub`` file."""
    text = text_or_path.strip()
    parts = text.split()
    if len(parts) >= 2 and _KEY_TYPE.fullmatch(parts[0]):
        return _normalise(text)
    from arbiter.core.errors import MalformedInput, NotReady
    from arbiter.core.safeio import read_input

    path = Path(text).expanduser()
    try:
        if not text:  # Path("") would be the current folder
            raise NotReady("no path given")
        data = read_input(path, limit=64 * 1024)  # no symlink, FIFO or device; bounded
    except MalformedInput as exc:
        raise UsageError(exc.message) from None
    except NotReady:
        raise UsageError(
            f"{text[:80]!r} is neither a public key line nor a readable .pub file: "
            "give 'ssh-ed25519 AAAA...' or the path of KEY.pub"
        ) from None
    if b"PRIVATE KEY-----" in data:
        raise UsageError(f"{path} is a private key: give its public half, {path}.pub")
    text = data.decode("utf-8", errors="replace")
    lines = [line for line in text.splitlines() if line.strip()[:1] not in ("", "#")]
    if not lines:
        raise UsageError(f"{path} holds no public key: give the .pub file written by keygen")
    return _normalise(lines[0], f"{path}: ")


def _normalise(line: str, where: str = "") -> str:
    """Parse one ``algo base64 [comment]`` line and return ``algo base64``."""
    parts = line.split()
    algo = parts[0] if parts else ""
    if len(parts) < 2 or not _KEY_TYPE.fullmatch(algo):
        raise UsageError(f"{where}not an OpenSSH public key: expected 'ssh-ed25519 AAAA...'")
    if algo not in SUPPORTED_KEY_TYPES:
        raise UsageError(
            f"{where}{algo} keys are not supported: use ssh-ed25519 (arbiter keygen) or ssh-rsa"
        )
    from sshsig import PublicKey

    try:
        key = PublicKey.do_from_openssh_str(f"{algo} {parts[1]}")
    # sshsig reports a key or algorithm it cannot handle as NotImplementedError.
    except (ValueError, NotImplementedError) as exc:
        key = ValueError(exc)
    if not isinstance(key, PublicKey):
        raise UsageError(f"{where}the {algo} key is damaged: copy the whole .pub line again")
    # Re-encoding gives one spelling per key, so manifests compare as strings.
    return str(key.openssh_str())


def sign(obj: dict[str, Any], key: Path, namespace: str) -> str:
    """Return the armored SSHSIG of ``signed_bytes(obj)``, as ``ssh-keygen -Y sign`` makes it.

    An unencrypted OpenSSH Ed25519 key signs in process. Anything else (a passphrase,
    another key type, or a ``.pub`` path meaning "the key in ssh-agent") goes through
    ``ssh-keygen``, which knows how to prompt and talk to the agent.
    """
    if not _NAME.fullmatch(namespace):
        raise UsageError(f"namespace {namespace!r} is invalid: use {NAMESPACE_MOVE!r}")
    key = Path(key).expanduser()
    data = signed_bytes(obj)
    private = _load_ed25519(key)
    if private is None:
        return _sign_with_ssh_keygen(data, key, namespace)
    return _armor(_sshsig_ed25519(private, data, namespace))


def _load_ed25519(key: Path) -> Any:
    """Return the Ed25519 key in ``key`` if it loads without a passphrase, else None."""
    from arbiter.core.errors import MalformedInput, NotReady
    from arbiter.core.safeio import read_input, shown

    if not os.path.lexists(key):
        raise UsageError(f"key file {shown(key)} not found: create one with 'arbiter keygen'")
    try:
        raw = read_input(key, f"key file {shown(key)}", limit=64 * 1024)
    except (MalformedInput, NotReady) as exc:  # a symlink, FIFO or device; unreadable
        raise UsageError(exc.message) from None
    if not raw.lstrip().startswith(_PRIVATE_HEADER):
        return None  # a .pub (agent) or a PEM-format key: ssh-keygen handles both
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_ssh_private_key

    try:
        loaded = load_ssh_private_key(raw, password=None)
    except (TypeError, ValueError, UnsupportedAlgorithm):
        return None  # TypeError means passphrase-protected: ssh-keygen will ask for it
    return loaded if isinstance(loaded, Ed25519PrivateKey) else None


def _string(data: bytes) -> bytes:
    """Encode an SSH wire-format string (uint32 length, then the bytes)."""
    return struct.pack(">I", len(data)) + data


def _to_sign(namespace: bytes, hash_algo: bytes, data: bytes) -> bytes:
    """Return the PROTOCOL.sshsig message that the key actually signs."""
    digest = hashlib.new(hash_algo.decode(), data).digest()
    return b"SSHSIG" + b"".join(map(_string, (namespace, b"", hash_algo, digest)))


def _sshsig_ed25519(private: Any, data: bytes, namespace: str) -> bytes:
    """Build the binary SSHSIG blob exactly as OpenSSH's PROTOCOL.sshsig lays it out."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    ns = namespace.encode()
    raw_public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    public_blob = _string(b"ssh-ed25519") + _string(raw_public)
    signature = private.sign(_to_sign(ns, b"sha512", data))
    signature_blob = _string(b"ssh-ed25519") + _string(signature)
    fields = (public_blob, ns, b"", b"sha512", signature_blob)
    return b"SSHSIG" + struct.pack(">I", 1) + b"".join(map(_string, fields))


def _armor(blob: bytes) -> str:
    """Armor a blob with ssh-keygen's 70-column wrapping, so outputs match byte for byte."""
    text = base64.b64encode(blob).decode()
    body = "\n".join(text[i : i + 70] for i in range(0, len(text), 70))
    return f"-----BEGIN SSH SIGNATURE-----\n{body}\n-----END SSH SIGNATURE-----\n"


def _sign_with_ssh_keygen(data: bytes, key: Path, namespace: str) -> str:
    """Sign ``data`` by running ``ssh-keygen -Y sign`` on a temporary file."""
    exe = shutil.which("ssh-keygen")
    if exe is None:
        raise UsageError(
            f"{key} needs ssh-keygen to sign (passphrase, agent or non-Ed25519 key) but it "
            "is not installed: install OpenSSH or use a key made by 'arbiter keygen'"
        )
    with tempfile.TemporaryDirectory(prefix="arbiter-sign-") as tmp:
        message = Path(tmp) / "signed-bytes"
        message.write_bytes(data)
        # stdin stays inherited so ssh-keygen can prompt for a passphrase.
        command = [exe, "-Y", "sign", "-f", str(key.absolute()), "-n", namespace, str(message)]
        done = subprocess.run(command, capture_output=True, check=False)
        signature = Path(tmp) / "signed-bytes.sig"
        if done.returncode != 0 or not signature.is_file():
            lines = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
            reason = lines[-1] if lines else f"exit status {done.returncode}"
            raise UsageError(f"ssh-keygen could not sign with {key}: {reason}")
        return signature.read_text(encoding="ascii")


def public_key_of(key: Path) -> str:
    """Return the normalised public key of a private key file (or of ``KEY.pub`` beside a
    key that needs a passphrase or lives in the agent)."""
    key = Path(key).expanduser()
    private = _load_ed25519(key)
    if private is not None:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        return _normalise(
            private.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode()
        )
    pub = key if key.suffix == ".pub" else key.with_name(key.name + ".pub")
    if not pub.is_file():
        raise UsageError(
            f"cannot tell the public half of {key}: put it beside the key as {pub.name}"
        )
    return read_public_key(str(pub))


def signature_blob(text: str) -> bytes:
    """Return the binary SSHSIG inside an armored signature (the base64 between the lines)."""
    body = "".join(
        line.strip() for line in text.strip().splitlines() if not line.startswith("-----")
    )
    try:
        return base64.b64decode(body, validate=True)
    except ValueError:
        raise BadSignature("signature is not a valid SSH signature: sign the file again") from None


_UNREADABLE = "signature is not a valid SSH signature: sign the file again"
_BEGIN = "-----BEGIN SSH SIGNATURE-----"
_END = "-----END SSH SIGNATURE-----"
_MAGIC = b"SSHSIG" + struct.pack(">I", 1)  # PROTOCOL.sshsig: the preamble, then version 1
_ED25519 = b"ssh-ed25519"
_ED25519_KEY = struct.pack(">I", len(_ED25519)) + _ED25519 + struct.pack(">I", 32)


def verify(
    obj: dict[str, Any], public_key: str, namespace: str, hashes: tuple[bytes, ...] = _HASHES
) -> None:
    """Raise ``BadSignature`` unless ``obj`` carries a valid SSHSIG by ``public_key``.

    ``hashes``: the SSHSIG hash algorithms accepted (sha512 alone where one signature per
    content matters, as for join entropy).

    Replay calls this once per signed file, so the common case costs little besides the
    Ed25519 check itself (in C): the seat's key is parsed once per process (``_key``), and
    a signature as arbiter and ssh-keygen make it is one comparison of its blob against
    the blob expected of that key and namespace, with only the 64 signature bytes free.
    Anything else is parsed field by field (``_fields``) to say what is wrong.
    """
    text = obj.get("signature")
    if not isinstance(text, str) or not text or text.isspace():
        raise BadSignature("signature is missing: sign the file before sending it")
    key = _key(public_key)
    if isinstance(key, str):
        raise BadSignature(f"the seat's public key is unusable ({key})")
    blob = _dearmor(text)
    expected = key.expected.get(namespace) or key.expect(namespace)
    if expected is not None:
        prefix, message = expected
        if len(blob) == len(prefix) + 64 and blob.startswith(prefix) and b"sha512" in hashes:
            key.check(blob[-64:], message + hashlib.sha512(signed_bytes(obj)).digest())
            return
    _verify_fields(obj, key, blob, namespace, hashes)


def _verify_fields(
    obj: dict[str, Any], key: _Key, blob: bytes, namespace: str, hashes: tuple[bytes, ...]
) -> None:
    """``verify`` of a blob that is not exactly the one expected: find what differs."""
    fields = _fields(blob)
    if fields is None:
        raise BadSignature(_UNREADABLE)
    signer, signed_namespace, hash_algo, signature = fields
    if signer != key.blob:
        _another_key(signer, key)
    if signed_namespace != namespace.encode():
        shown = signed_namespace[:40].decode("ascii", errors="replace")
        raise BadSignature(
            f"signed for namespace {shown!r}, expected {namespace!r}: "
            f"sign it again with namespace {namespace}"
        )
    if hash_algo not in hashes:
        allowed = " or ".join(h.decode() for h in hashes)
        raise BadSignature(
            f"signature uses another hash than {allowed}: sign it again with arbiter"
        )
    key.check_blob(signature, _to_sign(signed_namespace, hash_algo, signed_bytes(obj)))


def _dearmor(text: str) -> bytes:
    """Return the binary SSHSIG of an armored signature (empty if it holds none).

    The armour as ssh-keygen and arbiter write it (the lines, then the end line, then at
    most a newline) is decoded in one call; anything else the way the ``sshsig`` package
    reads it (the non-empty lines between the first begin line and the next end line,
    decoded leniently), so every signature reads as it always did.
    """
    if text.startswith(_BEGIN + "\n"):
        end = text.find("\n" + _END)
        if end > 0 and text[end + len(_END) + 1 :] in ("", "\n"):
            try:
                body = text[len(_BEGIN) + 1 : end].replace("\n", "")
                # Strict: base64 alone, which decodes as the lenient reading would.
                return binascii.a2b_base64(body, strict_mode=True)
            except ValueError:
                pass  # binascii.Error, or not ASCII: read the slow way to say so
    kept: list[str] = []
    begun = False
    for line in text.splitlines():
        if line == _BEGIN:
            begun = True
        elif line == _END:
            break
        elif line and begun:
            kept.append(line)
    try:
        return binascii.a2b_base64("".join(kept))
    except ValueError:
        return b""  # not base64 (or not ASCII): no blob, so not a valid signature


def _fields(blob: bytes) -> tuple[bytes, bytes, bytes, bytes] | None:
    """Return an SSHSIG blob's public key, namespace, hash algorithm and signature, or
    ``None`` if it is not exactly the PROTOCOL.sshsig layout (magic, version 1, five
    length-prefixed strings, nothing after them), as OpenSSH's ``sshsig.c`` requires."""
    if not blob.startswith(_MAGIC):
        return None
    strings = _strings(blob, len(_MAGIC), 5)
    if strings is None:
        return None
    signer, signed_namespace, _reserved, hash_algo, signature = strings
    return signer, signed_namespace, hash_algo, signature


def _strings(data: bytes, at: int, count: int) -> list[bytes] | None:
    """Return the ``count`` SSH strings at ``at`` if they fill ``data`` to its end."""
    out = []
    for _ in range(count):
        start = at + 4
        end = start + int.from_bytes(data[at:start], "big")
        if end > len(data):
            return None
        out.append(data[start:end])
        at = end
    return out if at == len(data) else None


def _another_key(signer: bytes, key: _Key) -> None:
    """Raise for a blob whose key is not the seat's (or not a key at all)."""
    from sshsig import PublicKey

    try:
        parsed = PublicKey.do_from_ssh_encoding(signer)
    except (ValueError, UnicodeError):
        raise BadSignature(_UNREADABLE) from None
    # sshsig returns NotImplementedError for key types it does not support.
    if isinstance(parsed, NotImplementedError):
        raise BadSignature("signature uses an unsupported key type: sign with ssh-ed25519")
    if not isinstance(parsed, PublicKey) or parsed == key.parsed:
        # The seat's key spelled with extra bytes: OpenSSH refuses such a blob too.
        raise BadSignature(_UNREADABLE)
    raise BadSignature(
        f"signed by another key ({parsed.sha256_str()}), not the seat's key "
        f"({key.parsed.sha256_str()}): sign with your own key"
    )


_MISMATCH = (
    "signature does not match the content: the file was changed after signing; sign it again"
)


class _Key:
    """A seat's public key, parsed once: its wire blob and what checks its signatures."""

    def __init__(self, line: str, blob: bytes, public: Any = None):
        """``line``: the normalised key; ``public``: its cryptography key if Ed25519."""
        from cryptography.exceptions import InvalidSignature

        self.line, self.blob, self.public = line, blob, public
        self.invalid = InvalidSignature
        self.ed25519 = public is not None
        # namespace -> (the blob before the 64 signature bytes, the message before the
        # digest) of a sha512 Ed25519 signature by this key in that namespace
        self.expected: dict[str, tuple[bytes, bytes] | None] = {}

    @functools.cached_property
    def parsed(self) -> Any:
        """The key as the ``sshsig`` package has it (RSA checks, fingerprints)."""
        from sshsig import PublicKey

        return PublicKey.from_openssh_str(self.line)

    def expect(self, namespace: str) -> tuple[bytes, bytes] | None:
        """Return (and remember) what ``verify`` compares a blob and a message against."""
        if not self.ed25519:
            return None  # RSA signatures are rare: their fields are read every time
        ns = namespace.encode()
        inner = _string(_ED25519) + struct.pack(">I", 64)
        prefix = _MAGIC + b"".join(map(_string, (self.blob, ns, b"", b"sha512")))
        prefix += struct.pack(">I", len(inner) + 64) + inner
        message = b"SSHSIG" + b"".join(map(_string, (ns, b"", b"sha512")))
        self.expected[namespace] = prefix, message + struct.pack(">I", 64)
        return self.expected[namespace]

    def check(self, signature: bytes, message: bytes) -> None:
        """Check a raw Ed25519 signature of ``message``."""
        try:
            self.public.verify(signature, message)
        except self.invalid:
            raise BadSignature(_MISMATCH) from None

    def check_blob(self, signature: bytes, message: bytes) -> None:
        """Check an SSHSIG's signature field (algorithm, then raw signature)."""
        if not self.ed25519:
            try:
                failure = self.parsed.do_verify(signature, message)
            except (ValueError, AssertionError):
                failure = ValueError()
            if isinstance(failure, ValueError):  # malformed, not cryptographically wrong
                raise BadSignature(_UNREADABLE)
            if failure is not None:
                raise BadSignature(_MISMATCH)
            return
        inner = _strings(signature, 0, 2)
        if inner is None or inner[0] != _ED25519 or len(inner[1]) != 64:
            raise BadSignature(_UNREADABLE)
        self.check(inner[1], message)


@functools.lru_cache(maxsize=256)
def _key(public_key: str) -> _Key | str:
    """Return the parsed key of a seat (or why it is unusable), once per key per process:
    every entry of a game is signed by one of a few keys.

    An Ed25519 key line as the manifest holds it (strict base64 of exactly the key's wire
    blob) is read directly; any other line goes through ``_normalise``, whose checks and
    messages decide, and gives the same normalised line for such a key.
    """
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    parts = public_key.split()
    if len(parts) >= 2 and parts[0] == "ssh-ed25519":
        try:
            blob = binascii.a2b_base64(parts[1], strict_mode=True)
            if len(blob) == len(_ED25519_KEY) + 32 and blob.startswith(_ED25519_KEY):
                public = Ed25519PublicKey.from_public_bytes(blob[-32:])
                return _Key("ssh-ed25519 " + base64.b64encode(blob).decode(), blob, public)
        except ValueError:
            pass  # _normalise says what is wrong
    try:
        line = _normalise(public_key)
    except UsageError as exc:
        return exc.message
    blob = base64.b64decode(line.split()[1])
    if not line.startswith("ssh-ed25519 "):
        return _Key(line, blob)
    return _Key(line, blob, Ed25519PublicKey.from_public_bytes(blob[-32:]))


def allowed_signers(
    entries: Iterable[tuple[str, str]],
    namespaces: Iterable[str] = (NAMESPACE_MOVE, NAMESPACE_JOIN),
) -> str:
    """Return an OpenSSH ``allowed_signers`` file for ``(seat, key)`` pairs."""
    names = list(namespaces)
    for name in names:
        if not _NAME.fullmatch(name):
            raise UsageError(f"namespace {name!r} is invalid: use {NAMESPACE_MOVE!r}")
    option = 'namespaces="' + ",".join(names) + '"'
    lines = []
    for seat, key in entries:
        if not _NAME.fullmatch(seat):
            raise UsageError(f"seat {seat!r} cannot be a principal: use letters, digits, ._@+-")
        # _normalise, not read_public_key: manifest keys are lines, never file paths.
        lines.append(f"{seat} {option} {_normalise(key)}\n")
    return "".join(lines)
