"""Turn notices without spam: each recipient gets at most one digest per period.

``arbiter notify`` (and the mail desk's ``[notices]`` chore) lists, for each recipient,
the games waiting for its decision with their deadlines, and sends that digest by mail or
by webhook (docs/notices.md):

- ``settings``: who gets what, from each game's private ``referee/notices.toml``;
- ``digest``: the games waiting, read from public files only, and the ``arbiter.notice/1``
  payload with its presets (ntfy, Slack, Discord);
- ``webhook``: the HTTP POST (standard library only);
- ``sent``: the record ``referee/notices.json`` that makes a run idempotent per period;
- ``run``: plan a run, deliver it, record it.
"""
