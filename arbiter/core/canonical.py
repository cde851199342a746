"""Strict JSON parsing and RFC 8785 canonical bytes, the ground every signature stands on.

Everything arbiter reads from outside passes ``parse_strict`` first. It accepts only
JSON whose canonical form is unambiguous (DESIGN.md "Canonical bytes"): no duplicate
keys, no floats, no NaN/Infinity, integers within ±(2^53−1), UTF-8 without a BOM, at
most 1 MiB and at most 64 levels of nesting.
"""

from __future__ import annotations

import hashlib
import json
import json.encoder
import re
from typing import Any

import rfc8785

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_SAFE_INT = 2**53 - 1


def _fail(message: str) -> Any:
    from arbiter.core.errors import MalformedInput

    raise MalformedInput(message)


class _Refused(ValueError):
    """A decoder hook refuses a value; ``parse_strict`` locates it and names the problem.

    Messages give a position, never the file's bytes: the file may not be the sender's
    own (DESIGN.md "Rejection messages"; arbiter.core.safeio).
    """

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused("duplicate")
        out[key] = value
    return out


def _no_float(text: str) -> Any:
    raise _Refused("float")


def _no_constant(text: str) -> Any:
    raise _Refused("constant")


def _checked_int(text: str) -> int:
    if len(text) > 20:
        raise _Refused("range")
    value = int(text)
    if abs(value) > MAX_SAFE_INT:
        raise _Refused("range")
    return value


_PROBLEMS = {
    "duplicate": "duplicate key{key} at {where}: each key may appear once in an object",
    "float": "the number at {where} is not an integer: arbiter files use integers only",
    "constant": "NaN or Infinity at {where} is not valid JSON: use integers only",
    "range": "the integer at {where} is out of range: integers must lie within ±(2^53−1)",
}
_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|-?Infinity|NaN|[{}\[\],:]|[a-z]+|\s+',
    re.DOTALL,
)
# A key that looks like a field name may be named in a message; anything else (a long hex
# string, text) could be content that must not come back to the terminal.
PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,23}")


def _locate(text: str) -> tuple[str, int, str] | None:
    """Return (problem, offset, key) of the first value the strict decoder refuses, in
    document order, by a token walk (run only when a file is refused)."""
    objects: list[set[str] | None] = []
    previous = ""
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            return None
        token, at, position = match.group(), position, match.end()
        first = token[0]
        if first.isspace():
            continue
        if token in ("{", "["):
            objects.append(set() if token == "{" else None)
        elif token in ("}", "]"):
            if objects:
                objects.pop()
        elif first == '"' and previous in ("{", ",") and objects and objects[-1] is not None:
            key = json.loads(token)
            if key in objects[-1]:
                return "duplicate", at, key
            objects[-1].add(key)
        elif token.endswith(("NaN", "Infinity")):
            return "constant", at, ""
        elif first == "-" or first.isdigit():
            if any(c in token for c in ".eE"):
                return "float", at, ""
            if len(token) > 20 or abs(int(token)) > MAX_SAFE_INT:
                return "range", at, ""
        previous = token
    return None


def _refusal(text: str, kind: str) -> str:
    """Name the problem and where it is: line and column, and a key only when it is a
    short plain name (a field of arbiter's formats), never other bytes of the file."""
    found = _locate(text)
    if found is None:
        return _PROBLEMS[kind].format(key="", where="an unknown place")
    problem, offset, key = found
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rfind("\n", 0, offset)
    named = f" '{key}'" if PLAIN_KEY.fullmatch(key) else ""
    return _PROBLEMS[problem].format(key=named, where=f"line {line} column {column}")


# Decoders built once (json.loads with hooks would build a new one on every call).
_STRICT_DECODER = json.JSONDecoder(
    object_pairs_hook=_no_duplicates,
    parse_float=_no_float,
    parse_constant=_no_constant,
    parse_int=_checked_int,
)


def _quick_int(text: str) -> int:
    # A ValueError sends the input to ``parse_strict``, which names the problem.
    if len(text) > 17:
        raise ValueError("integer out of range")
    value = int(text)
    if abs(value) > MAX_SAFE_INT:
        raise ValueError("integer out of range")
    return value


_CANONICAL_DECODER = json.JSONDecoder(
    parse_float=_no_float, parse_constant=_no_constant, parse_int=_quick_int
)


def depth(value: Any) -> int:
    """Return the nesting depth of a JSON value (a scalar is 0, ``[]`` is 1)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            level += 1
            stack.extend((v, level) for v in item.values())
        elif isinstance(item, list):
            level += 1
            stack.extend((v, level) for v in item)
        deepest = max(deepest, level)
    return deepest


# The json module's reasons, said plainly; each message ends in " at" or names no place.
_SYNTAX = {
    "Unterminated string starting at": "a string that starts at {where} is not closed",
    "Expecting ',' delimiter": "a ',' or a closing bracket is missing at {where}",
    "Expecting ':' delimiter": "a ':' is missing after the key at {where}",
    "Expecting property name enclosed in double quotes": (
        "a key in double quotes is expected at {where}"
    ),
    "Invalid control character at": (
        "a raw control character (a tab or a line break) is inside a string at {where}: "
        "write it as \\t or \\n"
    ),
    "Invalid \\escape": "a string has an invalid backslash escape at {where}",
    "Invalid \\uXXXX escape": "a string has an invalid \\u escape at {where}",
    "Extra data": "more text follows the JSON value at {where}: keep a single value",
    "Expecting value": "a value is expected at {where}",
}


def _syntax(exc: json.JSONDecodeError, text: str) -> str:
    """Say what the JSON parser found wrong, and where; a file that stops in the middle
    (an unclosed string, or nothing left where a value is due) is said to be cut short."""
    reason = exc.msg.split(": ")[0]  # the pure-Python scanner quotes a character after ': '
    where = f"line {exc.lineno} column {exc.colno}"
    template = _SYNTAX.get(reason)
    said = template.format(where=where) if template else f"{reason.removesuffix(' at')} at {where}"
    after = text[exc.pos :].lstrip()[:1]
    if text[: exc.pos].rstrip().endswith(",") and after in ("]", "}"):
        said += ": remove the comma after the last item"
    ended = exc.pos >= len(text.rstrip()) or reason.startswith("Unterminated string")
    if ended and reason != "Extra data":
        return f"it ends too early ({said}): it looks cut short, use the whole file"
    return said


def parse_strict(data: bytes, what: str = "file") -> Any:
    """Parse bytes as strict JSON or raise ``MalformedInput`` with a one-line reason."""
    if len(data) > MAX_BYTES:
        _fail(f"{what} is {len(data)} bytes, over the 1 MiB limit: send a smaller file")
    if not data.strip():
        _fail(f"{what} is empty: expected a JSON object")
    if data.startswith(b"\xef\xbb\xbf"):
        _fail(f"{what} starts with a byte order mark: save it as UTF-8 without BOM")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        _fail(f"{what} is not valid UTF-8 (byte {exc.start}): save it as UTF-8")
    try:
        value = _STRICT_DECODER.decode(text)
    except json.JSONDecodeError as exc:
        _fail(f"{what} is not valid JSON: {_syntax(exc, text)}")
    except _Refused as exc:
        _fail(f"{what}: {_refusal(text, exc.kind)}")
    except RecursionError:
        _fail(f"{what} nests deeper than {MAX_DEPTH} levels: flatten it")
    # Counting brackets (in C) bounds the depth, so most files skip the walk.
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(value) > MAX_DEPTH:
        _fail(f"{what} nests deeper than {MAX_DEPTH} levels: flatten it")
    if _SURROGATE_ESCAPE.search(text):
        _check_strings(value, what)
    return value


def parse_canonical(data: bytes, what: str = "file") -> Any:
    """Parse bytes that must already be canonical, as strictly as ``parse_strict``, faster.

    Equality with the canonical re-encoding rules out duplicate keys, whitespace, a BOM and
    odd escapes; the number hooks fire only when a number occurs. Anything the quick
    path cannot vouch for (an integer out of range, many brackets, a decode error) goes
    to ``parse_strict``, which names the problem.
    """
    if len(data) <= MAX_BYTES and data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        try:
            value, _ = _CANONICAL_DECODER.raw_decode(data.decode("utf-8"))
            if canonical(value) == data:
                return value
        except (ValueError, RecursionError):
            pass
    value = parse_strict(data, what)
    if canonical(value) != data:
        _fail(f"{what} is not in canonical form")
    return value


def _check_strings(value: Any, what: str) -> None:
    """Reject lone surrogates (``"\\ud800"``): they have no UTF-8 canonical form."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                _fail(f"{what} contains an unpaired surrogate escape: use real characters")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_BEYOND_BMP = re.compile("[\U00010000-\U0010FFFF]")
_dumps = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
).encode


def _unencodable(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON")


# The standard library's C encoder, built once: json.dumps would rebuild it on every call.
_make = getattr(json.encoder, "c_make_encoder", None)
_c_encoder = (
    _make(None, _unencodable, json.encoder.encode_basestring, None, ":", ",", True, False, False)
    if _make is not None
    else None
)


def canonical(value: Any) -> bytes:
    """Return the RFC 8785 canonical bytes of a JSON value (integers and strings only).

    For such values the standard library's sorted, compact, non-ASCII-escaping output is
    byte-identical to RFC 8785, except that RFC 8785 orders keys by UTF-16 code units:
    the two orders differ only when characters beyond U+FFFF occur, so then the
    ``rfc8785`` package decides. A property test checks the equivalence.
    """
    text = "".join(_c_encoder(value, 0)) if _c_encoder is not None else _dumps(value)
    if not text.isascii() and _BEYOND_BMP.search(text):
        return rfc8785.dumps(value)
    return text.encode()


def sha256_hex(data: bytes) -> str:
    """Return ``sha256:<hex>`` of raw bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def digest(value: Any) -> str:
    """Return ``sha256:<hex>`` of a value's canonical bytes."""
    return sha256_hex(canonical(value))


_compact_c = (
    _make(None, _unencodable, json.encoder.encode_basestring, None, ": ", ", ", True, False, False)
    if _make is not None
    else None
)
_compact_py = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(", ", ": "), allow_nan=False
).encode


_quote = json.encoder.encode_basestring  # no ASCII escaping, as ensure_ascii=False
_SCALARS = {True: "true", False: "false", None: "null"}


def _compact(value: Any) -> str:
    # Strings and plain integers (most leaves of a state file) skip the encoder's setup.
    kind = type(value)
    if kind is str:
        return _quote(value)
    if kind is int:
        return str(value)
    if value is None or kind is bool:
        return _SCALARS[value]
    return "".join(_compact_c(value, 0)) if _compact_c is not None else _compact_py(value)
PRETTY_LEVELS = 3


def pretty(value: Any) -> bytes:
    """Return the stable human-readable form used for every file arbiter writes.

    The outer three levels of objects (and lists of objects or lists) get one member per
    line; anything deeper is written on one line. Keys are sorted, so the same value
    always gives the same bytes (``arbiter verify`` compares published files byte for
    byte), and the deep values go through the standard library's C encoder, which keeps
    replays fast.
    """
    return (_pretty(value, 0) + "\n").encode()


def _pretty(value: Any, depth: int) -> str:
    # One branch for the last expanded level, whose members are all written on one line
    # (no call per member): a state file is pretty-printed at every published head.
    if isinstance(value, dict):
        if not value:
            return "{}"
        pad = "  " * depth
        inner = pad + "  "
        if depth == PRETTY_LEVELS - 1:
            members = [f"{inner}{_quote(k)}: {_compact(value[k])}" for k in sorted(value)]
        else:
            deeper = depth + 1
            members = [f"{inner}{_quote(k)}: {_pretty(value[k], deeper)}" for k in sorted(value)]
        return "{\n" + ",\n".join(members) + "\n" + pad + "}"
    if isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                break
        else:  # no object or list inside (or empty): one line
            return _compact(value)
        pad = "  " * depth
        inner = pad + "  "
        if depth == PRETTY_LEVELS - 1:
            items = [inner + _compact(item) for item in value]
        else:
            deeper = depth + 1
            items = [inner + _pretty(item, deeper) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return _compact(value)
