#!/usr/bin/env bash
# The paper's Fig. 5 comparison, PABD against the AVBD baseline: the relative
# error (E_k - E*) / (E_0 - E*) per iteration of the first step of
#   5a  scenes/spring_pair.json  (two boxes, spring stretched to twice its rest length)
#   5b  scenes/spring_net.json   (11 x 11 boxes, 220 springs)
# Writes docs/data/fig5{a,b}_{pabd,avbd}.csv and docs/images/fig5{a,b}.svg
# (both curves on one plot) and prints the table of docs/avbd.md.
#
#   scripts/make_fig5.sh [PATH/TO/pabd]      (default: build/pabd)
set -euo pipefail
cd "$(dirname "$0")/.."
pabd=${1:-build/pabd}
iterations=40
mkdir -p docs/data docs/images

for fig in 5a:spring_pair 5b:spring_net; do
  name=fig${fig%%:*}
  scene=scenes/${fig#*:}.json
  # One thread: the same numbers on any machine (the engine is deterministic
  # across thread counts, and the 3000-iteration reference is then fastest).
  "$pabd" converge "$scene" --solver pabd --iterations $iterations --threads 1 \
    --csv "docs/data/${name}_pabd.csv" > /dev/null
  "$pabd" converge "$scene" --solver avbd --iterations $iterations --threads 1 \
    --csv "docs/data/${name}_avbd.csv" --label AVBD \
    --overlay "docs/data/${name}_pabd.csv:PABD" --svg "docs/images/${name}.svg" > /dev/null
done

# The table: relative error after 1, 5, 10 and 20 iterations (CSV row k+2).
echo "| figure | solver | after 1 | after 5 | after 10 | after 20 |"
echo "|---|---|---|---|---|---|"
for name in fig5a fig5b; do
  for solver in pabd avbd; do
    awk -F, -v n="$name" -v s="$solver" '
      NR == 3 || NR == 7 || NR == 12 || NR == 22 { v[NR] = sprintf("%.3g", $2) }
      END { printf "| %s | %s | %s | %s | %s | %s |\n", n, s, v[3], v[7], v[12], v[22] }' \
      "docs/data/${name}_${solver}.csv"
  done
done
