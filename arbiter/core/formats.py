"""Format tags and id patterns of every file arbiter reads or writes.

Kept apart from the pydantic models so the hot paths (submit, verify) need not build them.
"""

GAME_ID = r"^[a-z0-9][a-z0-9-]{0,62}$"
SEAT_ID = r"^[a-z][a-z0-9_-]{0,31}$"

MANIFEST_FORMAT = "arbiter.game/1"
JOIN_FORMAT = "arbiter.join/1"
MOVE_FORMAT = "arbiter.move/1"
CHAIN_FORMAT = "arbiter.chain/1"
STATE_FORMAT = "arbiter.state/1"
REVEAL_FORMAT = "arbiter.reveal/1"
