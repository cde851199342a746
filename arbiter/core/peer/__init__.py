"""The peer protocol's cryptography (docs/peer.md §4): a verifiable deck with no trusted
referee. It knows no game: the group, the transcripts and the proofs, each module citing
the published protocol it follows."""
