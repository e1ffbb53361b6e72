#!/usr/bin/env bash
# The main demo: installs dependencies, builds, and simulates scenes/demo.json
# with a progress line and a timing summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
mkdir -p out
build/pabd run scenes/demo.json --steps 600 --states out/demo_states.csv --stats out/demo_stats.json
echo "demo: states in out/demo_states.csv, statistics in out/demo_stats.json"
