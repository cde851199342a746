"""The peer protocol's first primitives (docs/peer.md §4): the ristretto255 group against
RFC 9496's vectors, the transcript as its docstring specifies it (recomputed here with the
standard library), and the Schnorr proof of knowledge (RFC 8235 §3) and Chaum–Pedersen
share proof with frozen vectors and a refusal for every way to cheat them."""

from __future__ import annotations

import hashlib

import pytest

from arbiter.core.errors import Tampered
from arbiter.core.peer import dleq, group, schnorr
from arbiter.core.peer.transcript import Context

# RFC 9496 Appendix A.1: the encodings of 0·B … 5·B.
MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
]
CTX = Context("g1", "sha256:" + "ab" * 32, "alice", 3)
X = group.from_int(0x1234567)


def test_the_group_is_rfc_9496_ristretto255() -> None:
    for n, want in enumerate(MULTIPLES):
        assert group.base(group.from_int(n)).hex() == want
    assert group.BASE.hex() == MULTIPLES[1]
    assert group.add(group.base(group.from_int(2)), group.BASE).hex() == MULTIPLES[3]
    # libsodium's documented from_hash vector (crypto_core_ristretto255_from_hash).
    import rbcl

    h = bytes.fromhex(
        "5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c1"
        "4d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6"
    )
    assert rbcl.crypto_core_ristretto255_from_hash(h).hex() == (
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"
    )
    # A non-canonical field encoding (RFC 9496 A.2) and a too-large scalar are refused.
    with pytest.raises(Tampered):
        group.point(bytes.fromhex("00" + "ff" * 30 + "7f"))
    with pytest.raises(Tampered):
        group.scalar(group.ORDER.to_bytes(32, "little"))


def _transcript(kind: str, inputs: list[tuple[bytes, bytes]]) -> bytes:
    """docs/peer.md §4.2, written again from the transcript module's docstring."""
    fields = [(b"game", b"g1"), (b"manifest", ("sha256:" + "ab" * 32).encode()),
              (b"seat", b"alice"), (b"seq", (3).to_bytes(8, "big")), *inputs]  # fmt: skip
    out = b"arbiter-peer/1\x00" + kind.encode() + b"\x00"
    for label, value in fields:
        out += len(label).to_bytes(4, "big") + label + len(value).to_bytes(4, "big") + value
    return out


def _scalar(data: bytes) -> int:
    return int.from_bytes(hashlib.sha512(data).digest(), "little") % group.ORDER


def test_schnorr_vector_and_its_challenge_recomputed() -> None:
    v = group.from_int(0xABCDEF)
    proof = schnorr.prove(X, CTX, nonce=v)
    assert proof.hex() == (
        "4886bc981d0cafacac99e856348bebb2f563a87c5fb8553c42651f22ce1c4a5c"
        "1622412df2d2f683fe0cc1e6ef1004167b0960032296c7d4c47eac9774b05703"
    )
    key = group.base(X)
    commitment = group.base(v)
    c = _scalar(_transcript("schnorr-pok/1", [(b"G", group.BASE), (b"V", commitment), (b"X", key)]))
    r = (0xABCDEF - c * 0x1234567) % group.ORDER
    assert proof == commitment + r.to_bytes(32, "little")
    schnorr.verify(key, proof, CTX)


def test_schnorr_refusals() -> None:
    key = group.base(X)
    proof = schnorr.prove(X, CTX)
    schnorr.verify(key, proof, CTX)
    for other in (Context("g2", CTX.manifest, "alice", 3), Context("g1", CTX.manifest, "bob", 3),
                  Context("g1", CTX.manifest, "alice", 4)):  # fmt: skip
        with pytest.raises(Tampered, match="does not hold"):
            schnorr.verify(key, proof, other)  # replayed in another game, seat or message
    with pytest.raises(Tampered, match="does not hold"):
        schnorr.verify(group.base(group.from_int(7)), proof, CTX)  # another key
    # A rogue key X' = x·G − X_other: its owner knows no discrete log of X' and cannot prove it.
    other = group.base(group.from_int(99))
    rogue = group.sub(key, other)
    with pytest.raises(Tampered):
        schnorr.verify(rogue, proof, CTX)
    with pytest.raises(Tampered, match="identity"):
        schnorr.verify(group.IDENTITY, proof, CTX)
    tampered = proof[:32] + group.s_add(proof[32:], group.from_int(1))
    with pytest.raises(Tampered, match="does not hold"):
        schnorr.verify(key, tampered, CTX)


def test_chaum_pedersen_vector_and_its_challenge_recomputed() -> None:
    a = group.hash_to_point(b"test", b"A")
    assert a.hex() == "588fadff6080528394567a641d123072295b6f48fc9bd49591f659ff6db14d4f"
    d, proof = dleq.share(X, a, CTX, nonce=group.from_int(0x777))
    assert d.hex() == "16664890610786e0790cf4d881604b021560ad768f1fb73da4d386289eacbb24"
    assert proof.hex() == (
        "82e1b74a0d00f586d413161f8cd9887f6b4049369a38d036491f1855082dc102"
        "142eff2c4eaa1e23e469107803a9578797c603d0f10b5484eba05c4db517550d"
    )
    key = group.base(X)
    t1, t2 = group.base(group.from_int(0x777)), group.mul(group.from_int(0x777), a)
    inputs = [(b"G", group.BASE), (b"X", key), (b"A", a), (b"D", d), (b"T1", t1), (b"T2", t2)]
    c = _scalar(_transcript("chaum-pedersen/1", inputs))
    assert proof[:32] == c.to_bytes(32, "little")
    assert proof[32:] == ((0x777 + c * 0x1234567) % group.ORDER).to_bytes(32, "little")
    dleq.verify(key, a, d, proof, CTX)


def test_chaum_pedersen_refuses_a_wrong_share_and_a_replayed_proof() -> None:
    key = group.base(X)
    a = group.hash_to_point(b"test", b"A")
    d, proof = dleq.share(X, a, CTX)
    dleq.verify(key, a, d, proof, CTX)
    wrong = group.add(d, group.BASE)  # a share that would decrypt to another card
    with pytest.raises(Tampered, match="the share is wrong"):
        dleq.verify(key, a, wrong, proof, CTX)
    with pytest.raises(Tampered, match="the share is wrong"):  # the proof of another ciphertext
        dleq.verify(key, group.hash_to_point(b"test", b"B"), d, proof, CTX)
    with pytest.raises(Tampered, match="the share is wrong"):  # replayed by another seat
        dleq.verify(key, a, d, proof, Context("g1", CTX.manifest, "bob", 3))
    # A share made with another secret, with an honest-looking proof under that secret.
    d2, proof2 = dleq.share(group.from_int(5), a, CTX)
    with pytest.raises(Tampered, match="the share is wrong"):
        dleq.verify(key, a, d2, proof2, CTX)
    with pytest.raises(Tampered, match="not a valid"):
        dleq.verify(key, a, bytes.fromhex("00" + "ff" * 30 + "7f"), proof, CTX)


def test_card_points_follow_the_note_and_are_frozen() -> None:
    """docs/peer.md §4.1: M(card, copy) = from_hash(SHA-512("arbiter-card/1" ‖ 0 ‖ engine ‖
    0 ‖ card ‖ 0 ‖ u32be(copy))), computed here from the formula with libsodium directly."""
    import rbcl

    from arbiter.core.peer.cards import DeckPoints, point

    data = b"arbiter-card/1\x00momiji\x00maple-1\x00" + (1).to_bytes(4, "big")
    direct = rbcl.crypto_core_ristretto255_from_hash(hashlib.sha512(data).digest())
    assert point("momiji", "maple-1", 1) == direct
    assert point("momiji", "maple-1", 0).hex() == (
        "963baa08cab37677a9c6d14076e74da084af9f755d24be34841e76b66415c526"
    )
    assert direct.hex() == "ac44f599a3479e7eaf2a1717253a69a9df2a5760b1edf94409ef1f6b0ee2a703"
    assert point("motcoin", "maple-1", 0) != point("momiji", "maple-1", 0)
    deck = DeckPoints("momiji", ["maple-1", "oak-0", "maple-1"])
    assert deck.points[2] == direct and len(set(deck.points)) == 3
    assert [deck.card(m) for m in deck.points] == ["maple-1", "oak-0", "maple-1"]
    assert deck.options("momiji", ["maple-1"]) == [deck.points[0], deck.points[2]]
    with pytest.raises(Tampered, match="no card of its deck"):
        deck.card(point("momiji", "oak-0", 1))
