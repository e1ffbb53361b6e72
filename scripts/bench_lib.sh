# shellcheck shell=bash
# Shared by scripts/compare_peers.sh and scripts/benchmark_report.sh (sourced,
# not run): the benchmark build and the description of the tree being measured.

# bench_build DIR [TARGET ...]: configures DIR once (Release, benchmarks and
# peers on, tests and examples off) and builds the targets plus every peer
# program whose engine CMake found (peer_pabd always). The build log goes to
# DIR/build.log; on failure its last lines and one error line go to stderr.
bench_build() {
  local dir="$1" who="${BENCH_WHO:-bench}"
  shift
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    if ! cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DPABD_BUILD_TESTS=OFF \
      -DPABD_BUILD_EXAMPLES=OFF -DPABD_BUILD_BENCHMARKS=ON -DPABD_BUILD_PEERS=ON \
      >"${TMPDIR:-/tmp}/bench_configure.$$.log" 2>&1; then
      tail -n 20 "${TMPDIR:-/tmp}/bench_configure.$$.log" >&2
      echo "$who: configuring $dir failed" >&2
      return 1
    fi
    mv "${TMPDIR:-/tmp}/bench_configure.$$.log" "$dir/configure.log"
  fi
  local targets=(peer_pabd "$@") available peer
  available="$(cmake --build "$dir" --target help)"
  for peer in peer_bullet peer_ode peer_mujoco; do
    grep -q "$peer" <<<"$available" && targets+=("$peer")
  done
  if ! cmake --build "$dir" --target "${targets[@]}" -j2 >"$dir/build.log" 2>&1; then
    grep -m 5 -E 'error|Error' "$dir/build.log" >&2 || tail -n 20 "$dir/build.log" >&2
    echo "$who: building ${targets[*]} in $dir failed (log: $dir/build.log)" >&2
    return 1
  fi
}

# bench_commit: the short commit, "+ uncommitted changes" when tracked files
# differ from it, "unknown" outside git.
bench_commit() {
  local commit
  commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  if [ "$commit" != unknown ] && ! git diff --quiet HEAD 2>/dev/null; then
    commit="$commit + uncommitted changes"
  fi
  printf '%s\n' "$commit"
}
