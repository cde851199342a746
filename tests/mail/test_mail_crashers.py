"""The three small mails that each stopped the mail desk for good (issue 24, item 1).

Each one raised out of ``extract.read`` before issue 24 (RecursionError in the standard
library's parser, ValueError and UnicodeEncodeError in ``extract``), so the mail stayed in
INBOX and every later run failed on it again. Now each is read as unreadable, with a
reason for its sender. The same mails through a real Dovecot: ``test_desk_quarantine``.
This file imports only what existed before, so it can be run against the old code.
"""

from __future__ import annotations

import pytest

from arbiter.desks.mail import extract
from mail.hostile import CRASHERS

SENDER = "mallory@example.test"


@pytest.mark.parametrize(("kind", "reason"), [
    ("nested-2000", "nested more than 16 deep"),
    ("nul-charset", "not a character set name"),
    ("utf7-surrogate", "not valid in the character set it declares (utf-7)"),
])
def test_the_three_mails_that_stopped_the_desk_are_read_as_unreadable(kind: str, reason: str) -> None:
    """RecursionError, ValueError and UnicodeEncodeError on the code before issue 24."""
    raw = CRASHERS[kind](SENDER, 1)
    assert len(raw) == {"nested-2000": 138_841, "nul-charset": 173, "utf7-surrogate": 190}[kind]
    letter = extract.read(raw)
    assert letter.unreadable is not None and reason in letter.unreadable
    assert letter.files == [] and letter.sender == SENDER and letter.answerable
    assert "\n" not in letter.unreadable
