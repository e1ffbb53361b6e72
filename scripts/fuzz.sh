#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, -fsanitize=fuzzer,address,undefined)
# in build-fuzz/ and runs them side by side for SECONDS (default 60), one per core,
# each on a corpus seeded from scenes/, tests/data/ and fuzz/seeds/. Prints each
# target's executions and crashes; exits 1 when a target found a crash, a hang
# (over 10 s on one input), a leak or an input that takes over 2 GB.
#   scripts/fuzz.sh [SECONDS] [RUNS]
# RUNS, when given, stops each target after that many executions (or SECONDS,
# whichever comes first): `scripts/fuzz.sh 7200 10000000` is the 10M run.
# Findings are written to build-fuzz/findings/<target>/ (reproduce one with
# build-fuzz/fuzz/<target> FILE). The corpora grow in build-fuzz/corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
runs_limit=${2:--1}
build=build-fuzz
jobs=$(nproc 2>/dev/null || echo 2)
targets=(fuzz_scene fuzz_obj)

echo "== fuzz: building ${targets[*]} in $build"
# -O1 without -DNDEBUG: asserts stay on, and the build stays short.
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DPABD_BUILD_FUZZERS=ON -DPABD_BUILD_TESTS=OFF \
  -DPABD_BUILD_BENCHMARKS=OFF -DPABD_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

# Seeds: the shipped scenes and the test meshes, and fuzz/seeds/.
mkdir -p "$build/corpus/fuzz_scene" "$build/corpus/fuzz_obj"
cp scenes/*.json fuzz/seeds/scene/*.json "$build/corpus/fuzz_scene/"
cp tests/data/*.obj fuzz/seeds/obj/*.obj "$build/corpus/fuzz_obj/"

echo "== fuzz: ${targets[*]} for $seconds s each (or $runs_limit runs, -1: no limit), side by side"
pids=()
for t in "${targets[@]}"; do
  rm -rf "$build/findings/$t"
  mkdir -p "$build/findings/$t"
  # Inputs up to 4 KB (larger seeds are cut): a scene of a few bodies and joints
  # of every kind fits, and executions stay fast (64 KB inputs ran 20x slower).
  nice -n 10 "$build/fuzz/$t" "$build/corpus/$t" -max_total_time="$seconds" -runs="$runs_limit" -max_len=4096 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/findings/$t/" >"$build/findings/$t.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  wait "${pids[$i]}" || status=1
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/findings/$t.log" | tail -1)
  found=$(find "$build/findings/$t" -type f | wc -l)
  echo "fuzz: $t: ${runs:-?} executions, $found crashes (hangs, leaks and out-of-memory included)"
done
if [ $status -ne 0 ]; then
  for t in "${targets[@]}"; do grep -m1 -A12 "ERROR:\|==ERROR\|runtime error" "$build/findings/$t.log" || true; done
  echo "fuzz: FAILED: inputs in $build/findings/"
fi
exit $status
