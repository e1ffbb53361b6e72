#!/usr/bin/env bash
# Runs pabd and its peer engines (Bullet, ODE, MuJoCo; bench/peers/README.md) on
# the same scenes, alternately, R times each, and prints one Markdown table per
# scene: ms/step (median over the repetitions of each run's median), the ratio to
# pabd at 2 threads, and the outcome (stood, penetrations, joint gap, non-finite).
#
#   scripts/compare_peers.sh [--quick] [--reps R] [--build-dir DIR] [--jsonl FILE] [--no-table]
#
# Default: R = 3, the pile scenes for a few steps only (pile_50 once). --quick:
# R = 1, shorter runs, no pile_30 or pile_50. --jsonl: where the raw JSON lines
# go (default build/peers/results.jsonl); --no-table: no tables on stdout
# (scripts/benchmark_report.sh writes docs/benchmarks.md from the JSON lines).
set -euo pipefail

cd "$(dirname "$0")/.."
source scripts/bench_lib.sh
BENCH_WHO=compare_peers.sh
quick=0
reps=""
build=build/peers
results=build/peers/results.jsonl
table=1
need() { if [ $# -lt 2 ] || [ -z "$2" ]; then echo "compare_peers.sh: $1 needs a value (see --help)" >&2; exit 2; fi; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --reps) need "$@"; reps="$2"; shift ;;
    --build-dir) need "$@"; build="$2"; shift ;;
    --jsonl) need "$@"; results="$2"; shift ;;
    --no-table) table=0 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare_peers.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$reps" ] || { [ "$quick" -eq 1 ] && reps=1 || reps=3; }
case "$reps" in ''|*[!0-9]*|0) echo "compare_peers.sh: --reps: expected a positive integer, got '$reps'" >&2; exit 2 ;; esac

# Build pabd's peer program and every peer whose engine was found.
bench_build "$build"
bin="$build/bench/peers"

# Engines, as "program threads"; peers are single-threaded.
engines=()
[ -x "$bin/peer_bullet" ] && engines+=("bullet 1")
[ -x "$bin/peer_ode" ] && engines+=("ode 1")
[ -x "$bin/peer_mujoco" ] && engines+=("mujoco 1")
engines+=("pabd 1" "pabd 2")

# Scenes: "file steps repetitions". Piles: a few steps (the resting pile
# before the ball arrives at step 6; their cost is in every step), at least
# 3 (5 here), so that the median is not one of the first steps (allocation,
# pair caches, pabd's first load estimate). pile_50_heavy (the paper's Fig.
# 16b) is the 125k pile with its ball hitting from the first step: its steps
# are the impact's, the ones the paper times.
if [ "$quick" -eq 1 ]; then
  scenes=("ball_into_stack 30 $reps" "mass_ratio_stack 600 $reps" "heavy_chain 600 $reps"
          "pyramid 30 $reps" "pile_20 3 1")
else
  scenes=("ball_into_stack 120 $reps" "mass_ratio_stack 600 $reps" "heavy_chain 600 $reps"
          "pyramid 60 $reps" "pile_20 5 $reps" "pile_30 5 $reps" "pile_50 5 1"
          "pile_50_heavy 5 1")
fi

mkdir -p "$(dirname "$results")"
: >"$results"
commit="$(bench_commit)"
echo "compare_peers: commit $commit, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

started=$SECONDS
declare -A failed=()  # "engine threads scene" that failed once: deterministic, not rerun
for entry in "${scenes[@]}"; do
  read -r scene steps r <<<"$entry"
  for ((rep = 0; rep < r; ++rep)); do
    n=${#engines[@]}
    for ((k = 0; k < n; ++k)); do
      # Alternate: each repetition starts one engine later.
      read -r engine threads <<<"${engines[$(((k + rep) % n))]}"
      [ -z "${failed[$engine $threads $scene]:-}" ] || continue
      echo "compare_peers: $scene rep $((rep + 1))/$r: $engine ($threads thread(s)), $steps steps" >&2
      if [ "$engine" = mujoco ] && { [ "$scene" = pile_50 ] || [ "$scene" = pile_50_heavy ]; }; then
        # Measured: MuJoCo 2.2.2's mj_loadXML ran over 6 minutes on 125,001 bodies.
        printf '{"engine": "mujoco", "threads": 1, "scene": "scenes/%s.json", "error": "%s"}\n' \
          "$scene" "skipped: MuJoCo 2.2.2's XML compiler ran over 6 min on 125,001 bodies" >>"$results"
        continue
      fi
      err="$(mktemp)"
      if line="$("$bin/peer_$engine" "scenes/$scene.json" --steps "$steps" --threads "$threads" 2>"$err")"; then
        printf '%s\n' "$line" >>"$results"
      else
        python3 -c 'import json,sys; print(json.dumps({"engine": sys.argv[1], "threads": int(sys.argv[2]),
              "scene": sys.argv[3], "error": sys.argv[4].strip().splitlines()[-1] if sys.argv[4].strip() else "failed"}))' \
          "$engine" "$threads" "scenes/$scene.json" "$(cat "$err")" >>"$results"
        failed["$engine $threads $scene"]=1
      fi
      rm -f "$err"
    done
  done
done
echo "compare_peers: $((SECONDS - started)) s; raw results in $results" >&2

[ "$table" -eq 1 ] || exit 0
python3 - "$results" "$commit" <<'EOF'
import json, statistics, sys
from collections import OrderedDict

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
scenes = OrderedDict()
for r in rows:
    scenes.setdefault(r["scene"], OrderedDict()).setdefault((r["engine"], r["threads"]), []).append(r)

def fmt(v, digits=3):
    if v is None: return "–"
    if isinstance(v, bool): return "yes" if v else "**no**"
    if isinstance(v, float): return f"{v:.{digits}g}"
    return str(v)

print(f"# Peer comparison (commit {sys.argv[2]})\n")
print("ms/step: median over repetitions of each run's median step time (steady_clock around "
      "the step call only). Ratios: engine / pabd at 2 and at 1 thread (below 1 = faster than pabd). "
      "Outcome of the first repetition (the engines are deterministic). Penetrations in metres: "
      "contact = deepest overlap the engine's own contact detection reported; ground = deepest "
      "point of a body below the ground plane (same code for all). Stood: every box within "
      "5 cm of its start (resting scenes only). Settings: bench/peers/README.md.\n")
for scene, engines in scenes.items():
    med = {}
    for key, runs in engines.items():
        ok = [r for r in runs if "error" not in r]
        if ok: med[key] = statistics.median(r["ms_per_step"]["median"] for r in ok)
    ref = med.get(("pabd", 2))
    ref1 = med.get(("pabd", 1))
    first = next(r for runs in engines.values() for r in runs if "error" not in r) if med else None
    bodies = f", {first['bodies']} moving bodies, {first['steps']} steps of {first['dt']:.4g} s" if first else ""
    print(f"## {scene}{bodies}\n")
    print("| engine | threads | iterations | ms/step | ratio to pabd 2T | ratio to pabd 1T | stood | max contact pen. | "
          "max ground pen. | max joint gap | max displacement | non-finite |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key, runs in engines.items():
        ok = [r for r in runs if "error" not in r]
        if not ok:
            print(f"| {key[0]} | {key[1]} | – | not run: {runs[0]['error']} | | | | | | | | |")
            continue
        r = ok[0]
        ratio = f"{med[key] / ref:.3g}" if ref else "–"
        ratio1 = f"{med[key] / ref1:.3g}" if ref1 else "–"
        nf = f"step {r['nonfinite_step']}" if r["nonfinite_step"] else "no"
        print(f"| {key[0]} | {key[1]} | {r['iterations']} | {med[key]:.3g} | {ratio} | {ratio1} | {fmt(r['stood'])} | "
              f"{fmt(r['max_contact_penetration'])} | {fmt(r['max_ground_penetration'])} | "
              f"{fmt(r['max_joint_gap'])} | {fmt(r['max_displacement'])} | {nf} |")
    if not any(k[0] == "mujoco" for k in engines):  # say so rather than drop it
        print("| mujoco | – | – | not run: peer_mujoco not built (issue 6 reports that MuJoCo 2.2.2 as "
          "packaged cannot allocate the 1000-box scenes; bench/peers/README.md) | | | | | | | | |")
    print()
EOF
