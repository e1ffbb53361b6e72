#!/usr/bin/env bash
# The main demo: installs dependencies, builds, simulates the paper's spring
# net (Fig. 6) with a progress line and a timing summary, and writes a
# self-contained HTML player and an animated glTF of it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
mkdir -p out
scene=spring_net
build/pabd run "scenes/$scene.json" --every 2 --html "out/$scene.html" --gltf "out/$scene.glb" \
  --stats "out/$scene.stats.json"
echo
echo "demo: open out/$scene.html in a web browser (self-contained, no server needed)."
echo "      out/$scene.glb opens in Blender or any glTF viewer; timings in out/$scene.stats.json."
echo "      With a display, watch it live and drag bodies with the mouse:"
echo "        build/pabd view scenes/$scene.json"
