"""Format tags and id patterns of every file arbiter reads or writes.

Kept apart from the pydantic models so the hot paths (submit, verify) need not build them.
"""

GAME_ID = r"^[a-z0-9][a-z0-9-]{0,62}$"
SEAT_ID = r"^[a-z][a-z0-9_-]{0,31}$"

# Version 2 (wave 2): the manifest names the referee's key and joins carry entropy
# derived from the player's key (docs/rng.md). Version-1 games still verify and play.
MANIFEST_FORMAT = "arbiter.game/2"
MANIFEST_FORMAT_1 = "arbiter.game/1"
JOIN_FORMAT = "arbiter.join/2"
JOIN_FORMAT_1 = "arbiter.join/1"
# The join format each manifest version takes.
JOIN_FOR_MANIFEST = {MANIFEST_FORMAT: JOIN_FORMAT, MANIFEST_FORMAT_1: JOIN_FORMAT_1}
ENTROPY_FORMAT = "arbiter.entropy/1"
RECEIPT_FORMAT = "arbiter.receipt/1"
MOVE_FORMAT = "arbiter.move/1"
CHAIN_FORMAT = "arbiter.chain/1"
STATE_FORMAT = "arbiter.state/1"
REVEAL_FORMAT = "arbiter.reveal/1"
SEALED_INDEX_FORMAT = "arbiter.sealed/1"
SEALED_RECORD_FORMAT = "arbiter.sealed-record/1"
TIMEOUT_FORMAT = "arbiter.timeout/1"

# The life of a long game (issue 27, docs/game-life.md): files a seat signs besides its
# moves, and the referee's appointment of a substitute. Each has its own SSHSIG namespace.
RESIGN_FORMAT = "arbiter.resign/1"
PROPOSE_END_FORMAT = "arbiter.propose-end/1"
ANSWER_FORMAT = "arbiter.answer/1"
HANDOVER_FORMAT = "arbiter.handover/1"
APPOINT_FORMAT = "arbiter.appoint/1"
# Clocks (issue 27 item 5, docs/clocks.md): a seat's leave, and the referee's automatic leave.
LEAVE_FORMAT = "arbiter.leave/1"
LEAVE_AUTO_FORMAT = "arbiter.leave-auto/1"
# A takeback (docs/game-life.md §4): the seat's request, and the referee's record that it
# took effect (its own namespace, like a timeout's).
TAKEBACK_FORMAT = "arbiter.takeback/1"
TAKEBACK_RECORD_FORMAT = "arbiter.takeback-record/1"

# Standing orders (issue 27 item 7, docs/standing-orders.md): the seat's private file and
# the referee's record of each step it applied. Version 2 makes `when` a pattern (a decision
# matches on the fields it names, "*" any number of decisions); version-1 files, whose
# conditions are exact, are still read and judged as before.
ORDERS_FORMAT = "arbiter.orders/2"
ORDERS_FORMAT_1 = "arbiter.orders/1"
ORDERS_FORMATS = (ORDERS_FORMAT, ORDERS_FORMAT_1)
ORDER_STEP_FORMAT = "arbiter.order-step/1"

# Duplicate rounds (issue 28 item 3, docs/duplicate.md): the referee's entry that deals a
# game of a duplicate group from the group's shared deal seed, once every table has joined.
DEAL_FORMAT = "arbiter.deal/1"
