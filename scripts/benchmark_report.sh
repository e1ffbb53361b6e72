#!/usr/bin/env bash
# Measures everything docs/benchmarks.md reports and regenerates it (and
# docs/benchmarks_scaling.svg) from the measurements: the one command behind
# the benchmark figures (GitHub issue 6); never edit the generated files by hand.
#
#   scripts/benchmark_report.sh [--quick] [--reps R] [--out DIR] [--build-dir DIR]
#
# 1. configures and builds DIR (default build/report: Release, benchmarks and
#    peers on, tests and examples off; incremental after the first time);
# 2. the peer comparison (scripts/compare_peers.sh: pabd at 1 and 2 threads,
#    Bullet, ODE, MuJoCo, alternately, R repetitions, default 3);
# 3. `pabd bench` over scenes/ at 1 and 2 threads (Table 2), the piles
#    (pile_20, pile_30, pile_50) for the same few steps each, after two
#    untimed warm-up steps;
# 4. the spring-grid Google Benchmark (bench/bench_spring_grid);
# 5. scripts/benchmark_report.py: the Markdown and the SVG plot.
# Raw data: DIR/data/. About 9-12 minutes of measuring on a 2-core machine, plus
# the build (incremental: seconds to 3 minutes; the first one about 5 minutes).
# --quick: 1 repetition, fewer steps, no pile_30 or pile_50 (about 1.5 minutes);
# writes to DIR/ rather than docs/ unless --out is given.
set -euo pipefail

command_line="scripts/benchmark_report.sh${*:+ $*}"
quick=0
reps=""
out=""
build=build/report
need() { if [ $# -lt 2 ] || [ -z "$2" ]; then echo "benchmark_report.sh: $1 needs a value (see --help)" >&2; exit 2; fi; }
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --reps) need "$@"; reps="$2"; shift ;;
    --out) need "$@"; out="$(realpath -m -- "$2")"; shift ;;  # from the caller's folder
    --build-dir) need "$@"; build="$(realpath -m -- "$2")"; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "benchmark_report.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$reps" ] || { [ "$quick" -eq 1 ] && reps=1 || reps=3; }
case "$reps" in ''|*[!0-9]*|0) echo "benchmark_report.sh: --reps: expected a positive integer, got '$reps'" >&2; exit 2 ;; esac
[ -n "$out" ] || { [ "$quick" -eq 1 ] && out="$build" || out=docs; }
cd "$(dirname "$0")/.."  # defaults are the repo's folders
source scripts/bench_lib.sh
BENCH_WHO=benchmark_report.sh
PY=/usr/bin/python3  # Debian's, with python3-matplotlib (scripts/install-deps.sh)
"$PY" -c 'import matplotlib' 2>/dev/null ||
  { echo "benchmark_report.sh: $PY cannot import matplotlib (scripts/install-deps.sh installs python3-matplotlib)" >&2; exit 2; }

say() { echo "benchmark_report: $*" >&2; }
started=$SECONDS
date_utc="$(date -u '+%Y-%m-%d %H:%M UTC')"
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
commit="$(bench_commit)"
say "commit $commit, $(nproc) cores, load average $load_start"

# 1. Build (the peer programs, the CLI, the spring-grid benchmark).
say "building $build"
bench_build "$build" pabd_cli bench_spring_grid
build_s=$((SECONDS - started))

# What else ran while this command measured: the cores' busy time
# (/proc/stat) less this command's own (its finished children's CPU time,
# /proc/$$/stat's cutime and cstime: the same clock ticks), and the time the
# hypervisor gave to other machines (steal). The load average at the start
# says only what ran before.
cpu_ticks() {  # busy, steal and this shell's children's ticks
  local _cpu user nice system idle iowait irq softirq steal _rest shell
  read -r _cpu user nice system idle iowait irq softirq steal _rest </proc/stat
  shell="$(</proc/$$/stat)"
  read -r -a shell <<<"${shell##*) }"  # the fields after the name: state is field 3
  echo "$((user + nice + system + irq + softirq)) $steal $((shell[13] + shell[14]))"
}
read -r busy_start steal_start own_start < <(cpu_ticks)
measure_started=$SECONDS
data="$build/data"
mkdir -p "$data" "$out"
rm -f "$data"/*

# 2. The peer comparison, alternately, R repetitions.
peer_flags=(--reps "$reps" --build-dir "$build" --jsonl "$data/peers.jsonl" --no-table)
[ "$quick" -eq 1 ] && peer_flags+=(--quick)
scripts/compare_peers.sh "${peer_flags[@]}"

# 3. pabd bench: Table 2 over scenes/ (the piles apart: below, for a fixed
# number of steps, so the per-body-iteration costs cover the same steps).
pabd="$build/pabd"
table_scenes=()
for f in scenes/*.json; do
  case "$(basename "$f")" in pile_*) ;; *) table_scenes+=("$f") ;; esac
done
if [ "$quick" -eq 1 ]; then
  budget=1 piles=(scenes/pile_20.json) pile_steps=2 pile_warmup=1 pile_repeat=1
else
  # Steps 3 to 5: the first two map and fault both contact buffers (double
  # buffered for the warm start); the ball arrives in step 6. Three runs per
  # thread count, alternating: the three steps settle the pile (light, heavy,
  # medium) and one run's median moved by a fifth from one report to the next.
  budget=10 piles=(scenes/pile_20.json scenes/pile_30.json scenes/pile_50.json) pile_steps=3
  pile_warmup=2 pile_repeat=3
fi
say "pabd bench over ${#table_scenes[@]} scenes (--max-seconds $budget)"
status=0
"$pabd" bench "${table_scenes[@]}" --threads 1,2 --max-seconds "$budget" --quiet \
  --csv "$data/table2.csv" >/dev/null || status=$?
say "pabd bench over ${piles[*]}, $pile_steps steps each after $pile_warmup warm-up, $pile_repeat runs"
"$pabd" bench "${piles[@]}" --threads 1,2 --warmup "$pile_warmup" --steps "$pile_steps" \
  --repeat "$pile_repeat" --max-seconds 0 --max-bodies 0 --quiet --csv "$data/piles.csv" >/dev/null || status=$?
# The pile's second variant (the paper's Fig. 16b): its ball hits from step 1,
# so the same warm-up and steps time the impact, as the paper does; its rows
# join Table 2, not the resting piles' per-body-iteration costs.
if [ "$quick" -eq 0 ]; then
  say "pabd bench over scenes/pile_50_heavy.json, $pile_steps impact steps after $pile_warmup warm-up, $pile_repeat runs"
  "$pabd" bench scenes/pile_50_heavy.json --threads 1,2 --warmup "$pile_warmup" \
    --steps "$pile_steps" --repeat "$pile_repeat" --max-seconds 0 --max-bodies 0 --quiet --csv "$data/impact.csv" \
    >/dev/null || status=$?
  tail -n +2 "$data/impact.csv" >>"$data/table2.csv"
fi
# Status 1 is a failed row (non-finite, error): the report shows it; other
# statuses are the command failing.
[ "$status" -le 1 ] || { say "pabd bench failed with status $status"; exit 1; }

# 4. The spring-grid Google Benchmark.
if [ "$quick" -eq 1 ]; then sg=(--benchmark_repetitions=1 --benchmark_min_time=0.1)
else sg=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true); fi
say "bench_spring_grid ${sg[*]}"
"$build/bench/bench_spring_grid" "${sg[@]}" --benchmark_format=json >"$data/spring_grid.json"

# 5. The report.
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
read -r busy_end steal_end own_end < <(cpu_ticks)
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
os="$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")"
"$PY" -c '
import json, sys
k = ["commit", "date", "cpu", "cores", "os", "load_start", "load_end", "command", "quick", "reps",
     "build_s", "measure_s", "pile_warmup", "pile_repeat"]
meta = dict(zip(k, sys.argv[2:len(k) + 2]))
for n in ("cores", "reps", "build_s", "measure_s", "pile_warmup", "pile_repeat"):
  meta[n] = int(meta[n])
# The others: the busy ticks less those of this command, and the steal.
busy, steal, own, hz = (float(x) for x in sys.argv[len(k) + 2:])
meta["other_cpu_s"] = round(max(busy - own, 0.0) / hz, 1)
meta["steal_s"] = round(steal / hz, 1)
meta["quick"] = meta["quick"] == "1"
json.dump(meta, open(sys.argv[1], "w"), indent=1)' "$data/meta.json" "$commit" "$date_utc" \
  "${cpu:-unknown CPU}" "$(nproc)" "$os" "$load_start" "$load_end" "$command_line" "$quick" \
  "$reps" "$build_s" "$((SECONDS - measure_started))" "$pile_warmup" "$pile_repeat" \
  "$((busy_end - busy_start))" "$((steal_end - steal_start))" "$((own_end - own_start))" \
  "$(getconf CLK_TCK)"
"$PY" scripts/benchmark_report.py --data "$data" --out "$out"
say "wrote $out/benchmarks.md and $out/benchmarks_scaling.svg from $data/"
elapsed=$((SECONDS - started))
say "elapsed $((elapsed / 60)) min $((elapsed % 60)) s (build $build_s s)"
