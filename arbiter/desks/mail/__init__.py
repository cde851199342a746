"""The referee's mail desk: move files in by IMAP, answers and state files out by SMTP.

Identity is the signature, never the sender's address: the desk hands every file it finds
to ``core.referee.submit`` and answers whoever sent it. What was already sent is recorded
under each game's ``referee/mail/`` per chain entry, and every outgoing mail carries a
Message-ID derived from game, entry and recipient, so a desk restarted after a crash
repeats nothing and misses nothing (docs/referee-guide.md, "By mail").
"""
