#!/usr/bin/env bash
# Steps scenes/ball_into_stack.json (or SCENE) on one thread for SECONDS of wall
# time (default 3600) and prints, every minute, the steps taken, the median step
# time over that minute and the resident memory, as CSV (bench/soak.cpp). Flat
# columns mean no leak and no slowdown.
#   scripts/soak.sh [SECONDS] [SCENE]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-3600}
scene=${2:-scenes/ball_into_stack.json}
scripts/build.sh >/dev/null
exec build/bench/pabd_soak "$scene" --seconds "$seconds" --interval 60 --threads 1
