#!/usr/bin/env bash
# The whole-matrix cases CI leaves out for its time (pytest's "full" marker): whole Mot Coin
# games by mail (the desk in this process and as its own process each round) and through
# arbiter play by mail and git, Momiji through git, and Mottainai's 3,000 random playouts
# with every card. Each is also a test whose other cases CI runs; run them before a
# release, and after touching the player's desk, the mail desk or Mottainai: about twelve
# minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
pytest -m full --durations=0 "$@"
echo "suite: full cases took $((SECONDS - start)) s"
