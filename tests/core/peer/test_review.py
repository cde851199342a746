"""The security review of the peer cryptography (docs/peer-review.md).

Two kinds of test live here:

- **findings**: each failed before its fix in ``arbiter/core/peer/`` and passes after it
  (the finding's number is the review's), findings 6 and 7 included, whose fixes lie
  outside the core (game.json's nonce in ``peer.folder``, ``protocol._claims``);
- **properties** the review verified that no other test pinned: every RFC 9496 invalid
  encoding and every non-canonical scalar refused by every proof, the identity refused as a
  key even with a proof whose equation holds, every public input in every challenge (strong
  Fiat–Shamir, Bernhard–Pereira–Warinschi 2012), proofs bound to the manifest digest,
  hash-derived shuffle generators, fresh nonces, canonical hex at the message schema.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import rbcl

from arbiter.core import schemas
from arbiter.core.canonical import digest
from arbiter.core.errors import ArbiterError, Tampered
from arbiter.core.peer import (
    cards,
    dleq,
    elgamal,
    escrow,
    fresh,
    group,
    linear,
    oneof,
    returned,
    schnorr,
    shuffle,
    transcript,
)
from arbiter.core.peer.transcript import Context

CTX = Context("g1", "sha256:" + "ab" * 32, "alice", 5)
OTHER_MANIFEST = Context("g1", "sha256:" + "cd" * 32, "alice", 5)
X = group.from_int(0x5EC2E7)  # the prover's per-game secret
KEY = group.base(X)
OTHERS = [group.from_int(31), group.from_int(37)]
JOINT = elgamal.joint_key([KEY, *(group.base(o) for o in OTHERS)])
CARDS = [group.hash_to_point(b"review card", str(i).encode()) for i in range(6)]
DECK = [elgamal.encrypt(m, JOINT, group.from_int(1)) for m in CARDS]  # as a deck starts

# RFC 9496 Appendix A.2, "invalid encodings": non-canonical field encodings, negative field
# elements, non-square x², negative xy, and s = −1 (which makes y = 0).
BAD = [
    bytes.fromhex("00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
    bytes.fromhex("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("0100000000000000000000000000000000000000000000000000000000000000"),
    bytes.fromhex("01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    bytes.fromhex("ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20"),
    bytes.fromhex("c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562"),
    bytes.fromhex("c940e5a4404157cfb1628b108db051a8d439e1a421394ec4ebccb9ec92a8ac78"),
    bytes.fromhex("47cfc5497c53dc8e61c91d17fd626ffb1c49e2bca94eed052281b510b1117a24"),
    bytes.fromhex("f1c6165d33367351b0da8f6e4511010c68174a03b6581212c71c0e1d026c3c72"),
    bytes.fromhex("87260f7a2f12495118360f02c26a470f450dadf34a413d21042b43b9d93e1309"),
    bytes.fromhex("26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371"),
    bytes.fromhex("4eac077a713c57b4f4397629a4145982c661f48044dd3f96427d40b147d9742f"),
    bytes.fromhex("de6a7b00deadc788eb6b6c8d20c0ae96c2f2019078fa604fee5b87d6e989ad7b"),
    bytes.fromhex("bcab477be20861e01e4a0e295284146a510150d9817763caf1a6f4b422d67042"),
    bytes.fromhex("2a292df7e32cababbd9de088d1d1abec9fc0440f637ed2fba145094dc14bea08"),
    bytes.fromhex("f4a9e534fc0d216c44b218fa0c42d99635a0127ee2e53c712f70609649fdff22"),
    bytes.fromhex("8268436f8c4126196cf64b3c7ddbda90746a378625f9813dd9b8457077256731"),
    bytes.fromhex("2810e5cbc2cc4d4eece54f61c6f69758e289aa7ab440b3cbeaa21995c2f4232b"),
    bytes.fromhex("3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e"),
    bytes.fromhex("a45fdc55c76448c049a1ab33f17023edfb2be3581e9c7aade8a6125215e04220"),
    bytes.fromhex("d483fe813c6ba647ebbfd3ec41adca1c6130c2beeee9d9bf065c8d151c5f396e"),
    bytes.fromhex("8a2e1d30050198c65a54483123960ccc38aef6848e1ec8f5f780e8523769ba32"),
    bytes.fromhex("32888462f8b486c68ad7dd9610be5192bbeaf3b443951ac1a8118419d9fa097b"),
    bytes.fromhex("227142501b9d4355ccba290404bde41575b037693cef1f438c47f8fbf35d1165"),
    bytes.fromhex("5c37cc491da847cfeb9281d407efc41e15144c876e0170b499a96a22ed31e01e"),
    bytes.fromhex("445425117cb8c90edcbc7c1cc0e74f747f2c1efa5630a967c64f287792a48a4b"),
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
]


def _held(card: int) -> elgamal.Ciphertext:
    """Card ``card`` dealt to the prover: the other seats' layers stripped off."""
    a, b = elgamal.encrypt(CARDS[card], JOINT, group.from_int(900 + card))
    for o in OTHERS:
        b = group.sub(b, group.mul(o, a))
    return a, b


def _plus_order(s: bytes) -> bytes:
    """The same scalar, not reduced: s + ℓ still fits in 32 bytes (ℓ < 2^253)."""
    return (group.to_int(s) + group.ORDER).to_bytes(32, "little")


# -- findings ------------------------------------------------------------------------------


def test_finding_1_group_arithmetic_fails_closed_on_an_invalid_encoding() -> None:
    """rbcl hands back the identity's 32 zero bytes when libsodium cannot decode an operand,
    so before the fix an unchecked point silently counted as the identity."""
    operations: list[Callable[[bytes], bytes]] = [
        lambda bad: group.add(group.BASE, bad),
        lambda bad: group.add(bad, group.BASE),
        lambda bad: group.sub(group.BASE, bad),
        lambda bad: group.sub(bad, bad),
        lambda bad: group.mul(group.from_int(5), bad),
    ]
    for bad in BAD:
        for operation in operations:
            with pytest.raises(Tampered, match="not a valid ristretto255 element"):
                operation(bad)
    # Legitimate identities still come out: P − P, 0·P, ℓ·P.
    assert group.sub(group.BASE, group.BASE) == group.IDENTITY
    assert group.mul(group.from_int(0), group.BASE) == group.IDENTITY
    assert group.add(group.BASE, group.sub(group.IDENTITY, group.BASE)) == group.IDENTITY


def test_finding_1_a_proof_for_a_statement_that_is_no_point_is_refused() -> None:
    """What the fail-open arithmetic allowed: Maurer's verifier (``linear.verify``, public)
    accepted a 'proof of knowledge' for Y = an invalid encoding, made with no secret, since
    c·Y came out as the identity whatever c was. Every caller in the protocol checks its
    points first (``returned.verify`` does), so no message could do this; the fix makes the
    verifier itself refuse it."""
    equations = [linear.Equation(BAD[0], (group.BASE,))]
    z = fresh.scalar()
    commitment = group.base(z)  # what the verifier recomputed: z·G − c·Y with c·Y "= 0"
    c = linear._c("review/1", equations, [commitment], CTX, ())
    with pytest.raises(Tampered, match="not a valid ristretto255 element"):
        linear.verify("review/1", equations, c + z, CTX, "the forged statement")


def test_finding_2_card_point_fields_cannot_run_together() -> None:
    """engine ‖ 0x00 ‖ card: a 0x00 inside either field made two different cards the same
    point (before the fix the two points below were equal)."""
    with pytest.raises(ValueError, match="0x00"):
        cards.point("a\x00b", "c", 0)
    with pytest.raises(ValueError, match="0x00"):
        cards.point("a", "b\x00c", 0)
    with pytest.raises(ValueError, match="0x00"):
        cards.DeckPoints("momiji", ["maple-1", "b\x00c"])
    # The documented formula (and its frozen vectors) is unchanged for every real id.
    data = b"arbiter-card/1\x00momiji\x00maple-1\x00" + (0).to_bytes(4, "big")
    assert cards.point("momiji", "maple-1", 0) == rbcl.crypto_core_ristretto255_from_hash(
        hashlib.sha512(data).digest()
    )


def test_finding_3_a_deck_of_no_cards_is_shuffled_and_checked() -> None:
    """An engine may shuffle an empty list (``PeerRng`` makes a deck of it); before the fix
    the prover and the verifier both stopped with an IndexError."""
    out, proof = shuffle.shuffle([], JOINT, CTX)
    assert out == [] and len(proof.to_bytes()) == 32 * 9
    shuffle.verify([], [], JOINT, shuffle.Proof.from_bytes(proof.to_bytes(), 0), CTX)
    # Nothing is proven (every check is c·0 + s·G = t), so a changed scalar is all that fails.
    changed = shuffle.Proof(
        (), (), proof.t, (group.s_add(proof.s[0], group.from_int(1)), *proof.s[1:])
    )
    with pytest.raises(Tampered, match="does not hold"):
        shuffle.verify([], [], JOINT, changed, CTX)
    with pytest.raises(Tampered, match="not the 0"):
        shuffle.verify([], DECK[:1], JOINT, proof, CTX)


def test_finding_4_shuffle_verify_checks_the_proof_scalars_itself() -> None:
    """``verify`` relied on ``Proof.from_bytes`` for canonical scalars: a Proof object with
    s_1 + ℓ in place of s_1 verified (libsodium multiplies by the unreduced integer), so one
    proof had many encodings. It now refuses it, and an invalid key, on its own."""
    out, proof = shuffle.shuffle(DECK, JOINT, CTX)
    malleated = shuffle.Proof(proof.commitments, proof.chain, proof.t,
                              (_plus_order(proof.s[0]), *proof.s[1:]))  # fmt: skip
    with pytest.raises(Tampered, match="not a canonical scalar"):
        shuffle.verify(DECK, out, JOINT, malleated, CTX)
    with pytest.raises(Tampered, match="not a valid ristretto255 element"):
        shuffle.verify(DECK, out, BAD[3], proof, CTX)
    shuffle.verify(DECK, out, JOINT, proof, CTX)


def test_finding_5_escrow_holders_are_numbered_from_one() -> None:
    """f(0) is the secret itself, and so is f(ℓ): no holder may have such an index. Before
    the fix ``check`` took the secret as 'share 0'."""
    commitments, shares = escrow.deal(X, threshold=2, holders=3)
    for index in (0, -1, group.ORDER, group.ORDER + 1):
        with pytest.raises(ValueError, match="numbered from 1"):
            escrow.check(index, X if index == 0 else shares[0], commitments)
    with pytest.raises(ValueError, match="numbered from 1"):
        escrow.rebuild({1: shares[0], group.ORDER + 1: shares[0]})
    escrow.check(3, shares[2], commitments)
    assert escrow.rebuild({1: shares[0], 3: shares[2]}) == X


def _ssh_line(seed: int) -> str:
    blob = b"".join(len(p).to_bytes(4, "big") + p for p in (b"ssh-ed25519", bytes([seed]) * 32))
    return "ssh-ed25519 " + base64.b64encode(blob).decode()


def test_finding_6_two_games_never_share_a_manifest(tmp_path: Path) -> None:
    from arbiter.peer import folder

    seats = {"alice": _ssh_line(1), "bob": _ssh_line(2), "carol": _ssh_line(3)}
    manifests = []
    for week in ("first", "second"):
        root = tmp_path / week / "friday"
        root.mkdir(parents=True)
        manifests.append(digest(folder.create(root, "friday", "motcoin", {}, seats)))
    assert manifests[0] != manifests[1], "two games, one manifest: every proof replays"
    # The key message of the first game's alice, proof and all, must not hold in the second.
    first = Context("friday", manifests[0], "alice", 0)
    second = Context("friday", manifests[1], "alice", 0)
    proof = schnorr.prove(X, first)
    with pytest.raises(Tampered):
        schnorr.verify(KEY, proof, second)


def test_finding_7_a_claim_named_twice_is_refused() -> None:
    from arbiter.peer import protocol

    twice = [{"card": "?d0.3", "proof": "00" * 64}, {"card": "?d0.3", "proof": "11" * 64}]
    with pytest.raises(Tampered, match="twice"):
        protocol._claims(twice)


# -- properties ----------------------------------------------------------------------------


def _honest_proofs() -> tuple[Any, ...]:
    """One honest instance of every proof, which the refusals below spoil one field at a
    time: a held card, a share of it with its proof, a key proof, a claim, a returned
    card, a shuffle and an escrow."""
    a = _held(0)[0]
    d, share_proof = dleq.share(X, a, CTX)
    held = _held(2)
    new, back = returned.put_back(held, X, JOINT, group.from_int(77), CTX)
    return (
        a, d, share_proof, schnorr.prove(X, CTX), held, oneof.prove(held, X, CARDS[:3], CTX),
        new, back, shuffle.shuffle(DECK, JOINT, CTX), escrow.deal(X, 2, 3),
    )  # fmt: skip


def test_every_rfc_9496_invalid_encoding_is_refused_wherever_a_point_is_read() -> None:
    for bad in BAD:
        with pytest.raises(Tampered, match="not a valid"):
            group.point(bad)
    bad = BAD[6]
    a, d, share_proof, pok, held, claim, new, back, (out, proof), (commitments, shares) = (
        _honest_proofs()
    )
    refusals: list[Callable[[], object]] = [
        lambda: schnorr.verify(bad, pok, CTX),
        lambda: schnorr.verify(KEY, bad + pok[32:], CTX),
        lambda: dleq.verify(bad, a, d, share_proof, CTX),
        lambda: dleq.verify(KEY, bad, d, share_proof, CTX),
        lambda: dleq.verify(KEY, a, bad, share_proof, CTX),
        lambda: oneof.verify((bad, held[1]), KEY, CARDS[:3], claim, CTX),
        lambda: oneof.verify(held, KEY, [bad, *CARDS[1:3]], claim, CTX),
        lambda: returned.verify(held, (new[0], bad), KEY, JOINT, back, CTX),
        lambda: shuffle.verify(DECK, [(bad, out[0][1]), *out[1:]], JOINT, proof, CTX),
        lambda: shuffle.Proof.from_bytes(bad + proof.to_bytes()[32:], len(DECK)),
        lambda: escrow.check(1, shares[0], [commitments[0], bad]),
    ]
    for refuse in refusals:
        with pytest.raises(Tampered, match="not a valid"):
            refuse()


def test_every_non_canonical_scalar_is_refused() -> None:
    """A response or challenge s + ℓ acts like s in libsodium's arithmetic: accepting it
    would give every proof several encodings. Each reader refuses it."""
    a, d, share_proof, pok, held, claim, new, back, (_, proof), (commitments, shares) = (
        _honest_proofs()
    )
    raw = proof.to_bytes()
    first_scalar = 32 * (3 * len(DECK) + 5)
    refusals: list[Callable[[], object]] = [
        lambda: schnorr.verify(KEY, pok[:32] + _plus_order(pok[32:]), CTX),
        lambda: dleq.verify(KEY, a, d, _plus_order(share_proof[:32]) + share_proof[32:], CTX),
        lambda: dleq.verify(KEY, a, d, share_proof[:32] + _plus_order(share_proof[32:]), CTX),
        lambda: oneof.verify(held, KEY, CARDS[:3], _plus_order(claim[:32]) + claim[32:], CTX),
        lambda: oneof.verify(
            held, KEY, CARDS[:3], claim[:96] + _plus_order(claim[96:128]) + claim[128:], CTX
        ),
        lambda: returned.verify(held, new, KEY, JOINT, _plus_order(back[:32]) + back[32:], CTX),
        lambda: returned.verify(
            held, new, KEY, JOINT, back[:32] + _plus_order(back[32:64]) + back[64:], CTX
        ),
        lambda: shuffle.Proof.from_bytes(
            raw[:first_scalar]
            + _plus_order(raw[first_scalar : first_scalar + 32])
            + raw[first_scalar + 32 :],
            len(DECK),
        ),
        lambda: escrow.check(1, _plus_order(shares[0]), commitments),
    ]
    for refuse in refusals:
        with pytest.raises(Tampered, match="canonical scalar"):
            refuse()


def test_the_identity_is_refused_as_a_key_even_with_a_proof_that_holds() -> None:
    """For X = the identity, V = r·G satisfies V = r·G + c·X for any r: anyone can 'prove'
    knowledge of its log, and it would add nothing to the joint key (a seat that hides no
    card). Only the explicit check stands in the way; the identity is otherwise a valid
    element (a re-encryption may produce it), so ``group.point`` accepts it."""
    r = fresh.scalar()
    forged = group.base(r) + r
    assert group.add(group.base(r), group.mul(group.from_int(12345), group.IDENTITY)) == forged[:32]
    with pytest.raises(Tampered, match="identity"):
        schnorr.verify(group.IDENTITY, forged, CTX)
    assert group.point(group.IDENTITY) == group.IDENTITY
    # A share of the identity A must itself be the identity: nothing else is x·A.
    d, proof = dleq.share(X, group.IDENTITY, CTX)
    assert d == group.IDENTITY
    dleq.verify(KEY, group.IDENTITY, d, proof, CTX)
    with pytest.raises(Tampered, match="the share is wrong"):
        dleq.verify(KEY, group.IDENTITY, group.BASE, proof, CTX)


@pytest.fixture
def transcripts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """Every transcript the proofs hash while the test runs, as bytes."""
    seen: list[bytes] = []
    original = transcript.encode

    def recording(kind: str, context: Context, inputs: list[tuple[bytes, bytes]]) -> bytes:
        out = original(kind, context, inputs)
        seen.append(out)
        return out

    monkeypatch.setattr(transcript, "encode", recording)
    monkeypatch.setattr(shuffle, "encode", recording)
    yield seen


def _in_every(seen: list[bytes], values: list[bytes]) -> None:
    assert seen, "no challenge was computed"
    for data in seen:
        for value in [b"g1", CTX.manifest.encode(), b"alice", CTX.seq.to_bytes(8, "big")]:
            assert value in data
        for value in values:
            assert value in data, f"{value.hex()[:16]}… is not hashed into the challenge"


def test_every_public_input_is_in_every_challenge(transcripts: list[bytes]) -> None:
    """Strong Fiat–Shamir (Bernhard, Pereira and Warinschi, ASIACRYPT 2012): each challenge
    hashes the statement, not only the prover's first message, so no prover can pick the
    statement after seeing its challenge. Checked here from what the verifiers hash."""
    pok = schnorr.prove(X, CTX)
    transcripts.clear()
    schnorr.verify(KEY, pok, CTX)
    _in_every(transcripts, [group.BASE, KEY, pok[:32]])

    a = _held(0)[0]
    d, proof = dleq.share(X, a, CTX, nonce=group.from_int(99))
    transcripts.clear()
    dleq.verify(KEY, a, d, proof, CTX)
    t1, t2 = group.base(group.from_int(99)), group.mul(group.from_int(99), a)
    _in_every(transcripts, [group.BASE, KEY, a, d, t1, t2])

    held = _held(1)
    claim = oneof.prove(held, X, CARDS[:4], CTX)
    transcripts.clear()
    oneof.verify(held, KEY, CARDS[:4], claim, CTX)
    _in_every(transcripts, [KEY, held[0], held[1], *CARDS[:4]])

    new, back = returned.put_back(held, X, JOINT, group.from_int(5), CTX)
    transcripts.clear()
    returned.verify(held, new, KEY, JOINT, back, CTX)
    # Maurer's statement is the equations: every Y and every base. The held and new second
    # halves enter as B' − B only (review finding 8, accepted: the relation is linear, so a
    # shift of both by one Δ is again a true statement with the same witness).
    _in_every(transcripts, [group.BASE, KEY, JOINT, new[0], group.sub(new[1], held[1]),
                            group.sub(group.IDENTITY, held[0])])  # fmt: skip

    out, made = shuffle.shuffle(DECK, JOINT, CTX)
    transcripts.clear()
    shuffle.verify(DECK, out, JOINT, made, CTX)
    assert len(transcripts) == 2  # the u_i's statement and the main challenge's
    every_card = [p for pair in (*DECK, *out) for p in pair]
    _in_every(transcripts, [JOINT, *every_card, *made.commitments])
    _in_every(transcripts[1:], [*made.chain, *made.t])


def test_challenges_are_full_width() -> None:
    """Each challenge is a 512-bit hash reduced modulo ℓ: never truncated (a 2^-128 or worse
    soundness error would show as short challenges)."""
    widths = [
        group.to_int(transcript.challenge("k", CTX, [(b"i", i.to_bytes(4, "big"))])).bit_length()
        for i in range(64)
    ]
    assert max(widths) >= 250 and min(widths) >= 200
    u = shuffle._u(CTX, DECK, DECK, [c for c, _ in DECK], JOINT)
    assert len(set(u)) == len(DECK) and min(group.to_int(x).bit_length() for x in u) >= 200


def test_every_proof_is_bound_to_the_manifest() -> None:
    """The other tests replay proofs into another game id, seat and message; the manifest
    digest (game.json's terms) is the fourth thing every challenge binds."""
    elsewhere = OTHER_MANIFEST
    pok = schnorr.prove(X, CTX)
    with pytest.raises(Tampered, match="does not hold"):
        schnorr.verify(KEY, pok, elsewhere)
    a = _held(0)[0]
    d, proof = dleq.share(X, a, CTX)
    # test_peer_primitives replays a share into another seat only: game and round too.
    for other in (
        elsewhere,
        Context("g2", CTX.manifest, "alice", 5),
        Context("g1", CTX.manifest, "alice", 6),
    ):
        with pytest.raises(Tampered, match="does not hold"):
            dleq.verify(KEY, a, d, proof, other)
    held = _held(1)
    claim = oneof.prove(held, X, CARDS[:3], CTX)
    with pytest.raises(Tampered, match="does not hold"):
        oneof.verify(held, KEY, CARDS[:3], claim, elsewhere)
    new, back = returned.put_back(held, X, JOINT, group.from_int(5), CTX)
    with pytest.raises(Tampered, match="does not hold"):
        returned.verify(held, new, KEY, JOINT, back, elsewhere)
    out, made = shuffle.shuffle(DECK, JOINT, CTX)
    with pytest.raises(Tampered, match="does not hold"):
        shuffle.verify(DECK, out, JOINT, made, elsewhere)


def test_the_shuffle_generators_are_hash_derived_and_distinct() -> None:
    """h and h_1..h_N come from RFC 9496's element derivation of SHA-512 of a fixed label
    and counter, recomputed here with libsodium directly: nobody chose them, so nobody knows
    a discrete log between them, G and the card points (Terelius–Wikström's commitments
    bind only then)."""
    label = b"arbiter-peer/1 shuffle generator\x00"

    def derived(data: bytes) -> bytes:
        return rbcl.crypto_core_ristretto255_from_hash(hashlib.sha512(label + data).digest())

    h, hs = shuffle.generators(108)
    assert h == derived(b"h")
    assert hs == [derived(b"h" + i.to_bytes(4, "big")) for i in range(1, 109)]
    assert shuffle.generators(5) == (h, hs[:5])  # the same whatever the deck's size
    every = {
        h,
        *hs,
        group.BASE,
        group.IDENTITY,
        *(cards.point("momiji", str(i), 0) for i in range(9)),
    }
    assert len(every) == 1 + 108 + 2 + 9


def test_nonces_are_fresh_for_every_proof() -> None:
    """Two proofs of one statement never share a nonce (a shared Schnorr nonce gives away
    the secret: x = (r1 − r2)/(c2 − c1)). The production paths draw from the CSPRNG."""
    pok = [schnorr.prove(X, CTX) for _ in range(2)]
    assert pok[0][:32] != pok[1][:32]
    a = _held(0)[0]
    assert dleq.share(X, a, CTX)[1] != dleq.share(X, a, CTX)[1]
    held = _held(1)
    assert oneof.prove(held, X, CARDS[:3], CTX) != oneof.prove(held, X, CARDS[:3], CTX)
    first, second = shuffle.shuffle(DECK, JOINT, CTX)[1], shuffle.shuffle(DECK, JOINT, CTX)[1]
    assert not set(first.commitments) & set(second.commitments)
    drawn = [fresh.scalar() for _ in range(500)]
    assert len(set(drawn)) == 500
    assert all(0 < group.to_int(s) < group.ORDER for s in drawn)


def test_hex_on_the_wire_is_canonical() -> None:
    """``wire.unhex`` would read upper case and spaces; the message schema, checked first,
    takes only lowercase hex of the exact length, so one value has one encoding."""
    message: dict[str, Any] = {
        "format": "arbiter.peer-move/1", "game": "g1", "seat": "alice", "round": 0,
        "after": "sha256:" + "ab" * 32, "key": KEY.hex(), "proof": schnorr.prove(X, CTX).hex(),
    }  # fmt: skip
    schemas.validate("peer-move", message, "the message")
    for field in ("key", "proof"):
        value = message[field]
        spaced = value[:2] + " " + value[2:-1]  # same length, a space between two bytes
        for variant in (value.upper(), spaced, value + "00", value[:-2]):
            with pytest.raises(ArbiterError):
                schemas.validate("peer-move", {**message, field: variant}, "the message")


def test_finding_8_a_returned_card_proof_holds_only_for_its_own_ciphertexts() -> None:
    """The equations name B and B' only through B' − B: the same Δ added to both kept
    the proof valid before both ciphertexts were hashed into its challenge."""
    held = _held(2)
    new, back = returned.put_back(held, X, JOINT, group.from_int(77), CTX)
    returned.verify(held, new, KEY, JOINT, back, CTX)
    delta = group.base(group.from_int(5))
    shifted_held = (held[0], group.add(held[1], delta))
    shifted_new = (new[0], group.add(new[1], delta))
    with pytest.raises(Tampered, match="does not hold"):
        returned.verify(shifted_held, shifted_new, KEY, JOINT, back, CTX)
