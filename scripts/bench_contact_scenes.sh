#!/usr/bin/env bash
# Times collision detection and the solve of the paper's contact scenes with
# `pabd run --stats` at 1 and 2 threads, side by side in one run, and prints a
# Markdown table (docs/benchmarks.md, "Contact scenes"):
#   scripts/bench_contact_scenes.sh [--quick]
# --quick skips pile_50 (125,001 bodies, about 10-20 s per step on 2 cores).
# Builds build/ first. Writes the stats JSON files to build/bench-contacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
scripts/build.sh >/dev/null
out=build/bench-contacts
mkdir -p "$out"

# scene:steps. The 1001-body scene runs its 5 s (the ball's impact included);
# the piles a few steps of the resting pile before the ball arrives.
runs="ball_into_stack:300 pile_20:20 pile_30:6"
[ $quick -eq 0 ] && runs="$runs pile_50:3"

echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include || echo ' (modified)'), $(date -u +%Y-%m-%d), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo
echo "| scene | bodies | contacts (median) | threads | steps | collision ms | solve ms | ms/step |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for run in $runs; do
  scene=${run%%:*}
  steps=${run##*:}
  for threads in 1 2; do
    stats="$out/${scene}_t${threads}.json"
    build/pabd run "scenes/$scene.json" --steps "$steps" --threads "$threads" --quiet \
      --stats "$stats" >/dev/null
    /usr/bin/python3 - "$stats" "$scene" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
print("| %s | %d | %d | %d | %d | %.1f | %.1f | %.1f |" % (
    sys.argv[2], s["bodies"], s["contacts"]["median"], s["threads"], s["steps"],
    s["collision_ms"], s["solve_ms"], s["ms_per_step"]["median"]))
EOF
  done
done
