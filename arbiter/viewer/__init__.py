"""The self-contained HTML replay page (``arbiter html``): frames encoded, page assembled.

``payload`` encodes the frames of ``arbiter.core.timeline`` compactly, ``glossary`` says
what each card id on the table is, ``page`` puts the data and the static page
(``static/``: HTML, CSS, the stepping script and one drawing script per engine) into one
file.
"""
