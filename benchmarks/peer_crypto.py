"""The peer protocol's cryptography against DESIGN.md's budget (docs/peer.md §4.4): a
54-card shuffle proof ≤ 50 ms to make and to check, and a decryption share with its
Chaum–Pedersen proof; the claims about a Mottainai hand (docs/peer-mottainai.md §3.4): a
presence and an absence over 5 held cards, asked about the 10 faces of one material of a
54-card deck and of a 108-card one. Prints the medians and their ratio to the budget,
measured in one run.

    python benchmarks/peer_crypto.py [--cards 54] [--runs 9]
"""

from __future__ import annotations

import argparse
import statistics
import time

from arbiter.core.peer import dleq, elgamal, group, oneof, schnorr, shuffle
from arbiter.core.peer.transcript import Context

BUDGET_MS = 50.0


def _median_ms(action, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cards", type=int, default=54)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    context = Context("bench", "sha256:" + "00" * 32, "alice", 1)
    secrets = [group.from_int(n) for n in (101, 202, 303)]
    key = elgamal.joint_key([group.base(x) for x in secrets])
    deck = [(group.IDENTITY, group.hash_to_point(b"bench card", str(i).encode())) for i in range(args.cards)]
    made: dict[str, object] = {}

    def prove() -> None:
        made["out"], made["proof"] = shuffle.shuffle(deck, key, context)

    prove_ms = _median_ms(prove, args.runs)
    out, proof = made["out"], made["proof"]
    verify_ms = _median_ms(lambda: shuffle.verify(deck, out, key, proof, context), args.runs)  # type: ignore[arg-type]
    a = out[0][0]  # type: ignore[index]
    share_ms = _median_ms(lambda: dleq.share(secrets[0], a, context), args.runs * 10)
    d, p = dleq.share(secrets[0], a, context)
    check_ms = _median_ms(lambda: dleq.verify(group.base(secrets[0]), a, d, p, context), args.runs * 10)
    pok_ms = _median_ms(lambda: schnorr.prove(secrets[0], context), args.runs * 10)
    size = len(proof.to_bytes())  # type: ignore[attr-defined]
    print(f"{args.cards}-card shuffle proof: make {prove_ms:.1f} ms ({prove_ms / BUDGET_MS:.2f}× the "
          f"50 ms budget), check {verify_ms:.1f} ms ({verify_ms / BUDGET_MS:.2f}×), {size:,} bytes")
    print(f"decryption share + proof: make {share_ms:.2f} ms, check {check_ms:.2f} ms, 96 bytes")
    print(f"proof of knowledge of a per-game key: make {pok_ms:.2f} ms, 64 bytes")
    _hand_claims(context, args.runs)


def _hand_claims(context: Context, runs: int) -> None:
    """Presence and absence over a 5-card hand, asked about the faces of one material."""
    for size in (54, 108):
        _claims_at(size, context, runs)


def _claims_at(size: int, context: Context, runs: int) -> None:
    x = group.from_int(4242)
    faces = [group.hash_to_point(b"bench card", str(i).encode()) for i in range(size)]
    asked, others = faces[: 10 * (size // 54)], faces[10 * (size // 54) :]
    hand = [elgamal.encrypt(faces[20 + i], group.base(x), group.from_int(7 + i)) for i in range(5)]
    holding = [elgamal.encrypt(asked[0], group.base(x), group.from_int(6)), *hand[1:]]
    some_ms = _median_ms(lambda: oneof.prove_some(holding, x, asked, context), runs)
    some = oneof.prove_some(holding, x, asked, context)
    check_some = _median_ms(lambda: oneof.verify_some(holding, group.base(x), asked, some, context), runs)
    none_ms = _median_ms(lambda: oneof.prove_none(hand, x, others, context), runs)
    none = oneof.prove_none(hand, x, others, context)
    check_none = _median_ms(lambda: oneof.verify_none(hand, group.base(x), others, none, context), runs)
    print(f"{size}-card deck, 5 held, {len(asked)} faces asked: presence make {some_ms:.1f} ms, "
          f"check {check_some:.1f} ms, {len(some):,} bytes; absence make {none_ms:.1f} ms, "
          f"check {check_none:.1f} ms, {len(none):,} bytes")


if __name__ == "__main__":
    main()
