"""The tournament's live site for spectators (issue 28 item 8, docs/tournaments.md "Live page").

It reads a tournament folder (``arbiter.tournament``) and draws each game with the replay
page (``arbiter.viewer``), so it sits above both, beside the command line.
"""
