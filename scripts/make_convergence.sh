#!/usr/bin/env bash
# Convergence acceleration (issue: joints, item 5): the relative error
# (E_k - E*) / (E_0 - E*) per iteration of one step, for PABD's iteration
# options on three scenes:
#   pair   scenes/spring_pair.json with a stiff spring (k = 1e5 N/m), step 1:
#          the Jacobi double correction at its worst
#   net    scenes/spring_net.json, step 1 (the paper's Fig. 5b scene)
#   chain  scenes/heavy_chain.json, step 60: the 1000x chain mid-swing
# and the options: jacobi (the paper), jacobi + relaxation 0.7, jacobi +
# Chebyshev, colored, colored + Chebyshev. The scene variants are written to a
# temporary folder (only the settings change). Writes
# docs/data/convergence_<scene>_<option>.csv and docs/images/convergence_<scene>.svg
# and prints the table of docs/method.md.
#
#   scripts/make_convergence.sh [PATH/TO/pabd]      (default: build/pabd)
set -euo pipefail
cd "$(dirname "$0")/.."
pabd=${1:-build/pabd}
iterations=40
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/data docs/images

options="jacobi jacobi_relax jacobi_cheb colored colored_cheb"
python3 - "$tmp" <<'PY'
import copy, json, os, sys
out = sys.argv[1]
options = {
    "jacobi": {"iteration_order": "jacobi", "chebyshev_rho": 0, "relaxation": 1},
    "jacobi_relax": {"iteration_order": "jacobi", "chebyshev_rho": 0, "relaxation": 0.7},
    "jacobi_cheb": {"iteration_order": "jacobi", "chebyshev_rho": 0.9, "relaxation": 1},
    "colored": {"iteration_order": "colored", "chebyshev_rho": 0, "relaxation": 1},
    "colored_cheb": {"iteration_order": "colored", "chebyshev_rho": 0.9, "relaxation": 1},
}
pair = json.load(open("scenes/spring_pair.json"))
pair["joints"][0]["stiffness"] = 1e5
# File names are what the plots' titles show.
scenes = {"spring_pair_k1e5": pair, "spring_net": json.load(open("scenes/spring_net.json")),
          "heavy_chain": json.load(open("scenes/heavy_chain.json"))}
for option, settings in options.items():
    os.makedirs(f"{out}/{option}")
    for name, scene in scenes.items():
        s = copy.deepcopy(scene)
        s["settings"].update(settings)
        json.dump(s, open(f"{out}/{option}/{name}.json", "w"))
PY

for scene in pair:spring_pair_k1e5:1 net:spring_net:1 chain:heavy_chain:60; do
  name=${scene%%:*}
  file=$(echo "$scene" | cut -d: -f2)
  step=${scene##*:}
  overlays=()
  for option in $options; do
    "$pabd" converge "$tmp/$option/$file.json" --step "$step" --iterations $iterations \
      --threads 1 --csv "docs/data/convergence_${name}_${option}.csv" > /dev/null
    [ "$option" = jacobi ] || overlays+=(--overlay "docs/data/convergence_${name}_${option}.csv:${option}")
  done
  # Redo the first option's run to draw every curve on one plot.
  "$pabd" converge "$tmp/jacobi/$file.json" --step "$step" --iterations $iterations \
    --threads 1 --csv "docs/data/convergence_${name}_jacobi.csv" --label jacobi \
    "${overlays[@]}" --svg "docs/images/convergence_${name}.svg" > /dev/null
done

# The table: relative error after 1, 5, 10, 20 and 40 iterations (CSV row k+2).
echo "| scene | option | after 1 | after 5 | after 10 | after 20 | after 40 |"
echo "|---|---|---|---|---|---|---|"
for name in pair net chain; do
  for option in $options; do
    awk -F, -v n="$name" -v o="$option" '
      NR == 3 || NR == 7 || NR == 12 || NR == 22 || NR == 42 { v[NR] = sprintf("%.3g", $2) }
      END { printf "| %s | %s | %s | %s | %s | %s | %s |\n", n, o, v[3], v[7], v[12], v[22], v[42] }' \
      "docs/data/convergence_${name}_${option}.csv"
  done
done
