#!/usr/bin/env bash
# Times collision detection and the solve of the paper's contact scenes at 1
# and 2 threads, side by side in one run, with `pabd bench` (one table per
# scene; scripts/benchmark_report.sh measures the same for docs/benchmarks.md,
# "Cost per body-iteration"):
#   scripts/bench_contact_scenes.sh [--quick]
# --quick skips pile_50 (125,001 bodies, about 10-20 s per step on 2 cores).
# Builds build/ first.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
scripts/build.sh >/dev/null

# scene:steps. The 1001-body scene runs its 5 s (the ball's impact included);
# the piles a few steps of the resting pile before the ball arrives. No time
# budget and no body limit: every row covers exactly these steps.
runs="ball_into_stack:300 pile_20:20 pile_30:6"
[ $quick -eq 0 ] && runs="$runs pile_50:3"
for run in $runs; do
  build/pabd bench "scenes/${run%%:*}.json" --steps "${run##*:}" --threads 1,2 \
    --max-seconds 0 --max-bodies 0 --quiet
done
