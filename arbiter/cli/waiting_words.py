"""Words the CLI shows for a game that waits for something other than a seat."""

AWAITING_DEAL = (
    "every seat has joined; the organiser deals this duplicate table once every table of "
    "its group has joined (`arbiter tournament deal`, docs/duplicate.md)"
)
