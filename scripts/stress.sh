#!/usr/bin/env bash
# Runs N random valid scenes (default 1000) of 120 steps through pabd_stress
# (tests/stress/): no signal, no non-finite state, no successful step with a
# body past the physical bound of docs/method.md ("The divergence guard").
# Prints each scene that the guard stopped or that broke the rule, and the
# counts; exits 1 when a scene broke the rule. Scenes are kept in
# build/stress/, one CSV row per scene in build/stress/scenes.csv.
#   scripts/stress.sh [N] [FIRST_SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
seed=${2:-1}
scripts/build.sh >/dev/null
mkdir -p build/stress
exec build/tests/pabd_stress --count "$count" --seed "$seed" --steps 120 --threads 2 \
  --keep build/stress --csv build/stress/scenes.csv
