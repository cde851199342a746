#!/usr/bin/env bash
# The whole-matrix cases CI leaves out for its time (pytest's "full" marker): whole Mot Coin
# games through arbiter play by mail and git, the mail desk run as its own process each
# round. Each is also a test; run them before a release, and after touching the player's
# desk or the mail desk: about six minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
pytest -m full --durations=0 "$@"
echo "suite: full cases took $((SECONDS - start)) s"
