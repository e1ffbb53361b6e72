#!/usr/bin/env bash
# The CUDA backend's checks and timings in one run (docs/gpu.md): built where
# the project's packages are, run where a GPU is, in a few minutes.
#
#   scripts/gpu_check.sh build   build-gpu/ with the CUDA backend (PABD_CUDA),
#                                and the bundle build-gpu-bundle/ (about 20 MB:
#                                pabd, the device test and every shared library
#                                they need), to carry to a GPU machine that
#                                lacks the project's packages
#   scripts/gpu_check.sh run     on the GPU machine, from the repo's root: the
#                                device tests against the CPU (tests labelled
#                                gpu), then `pabd bench` on the paper's Table 2
#                                scenes and the piles with --device cuda and
#                                --device cpu side by side, and one summary
#   scripts/gpu_check.sh         both, on a machine with the packages and a GPU
#
# Environment: PABD_CUDA_ARCHITECTURES (default 90: H100, H200), GPU_CHECK_OUT
# (where logs and CSVs go; default build-gpu-bundle/check).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
bundle=build-gpu-bundle
out=${GPU_CHECK_OUT:-$bundle/check}
arch=${PABD_CUDA_ARCHITECTURES:-90}
jobs=$(nproc 2>/dev/null || echo 2)

build() {
  scripts/install-deps.sh
  local nvcc
  nvcc=$(command -v nvcc || true)
  [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
  [ -n "$nvcc" ] || { echo "gpu_check: nvcc not found (install CUDA 12 or newer)" >&2; exit 1; }
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DPABD_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    -DPABD_BUILD_BENCHMARKS=OFF -DPABD_BUILD_EXAMPLES=OFF -DPABD_BUILD_PYTHON=OFF >/dev/null
  cmake --build build-gpu --target pabd_cli test_cuda_device -j"$jobs"
  # The programs and every shared library but the C library's own, for a
  # machine without the project's packages (the GPU machine's image has CUDA,
  # not Debian's -dev packages); LD_LIBRARY_PATH points there in `run`.
  # The C++ runtime goes apart (lib-cxx): it needs this machine's glibc
  # (2.36 on Debian 12), and a machine whose own runtime is new enough uses that.
  rm -rf "$bundle"
  mkdir -p "$bundle/lib" "$bundle/lib-cxx"
  cp build-gpu/pabd build-gpu/tests/test_cuda_device "$bundle/"
  local libs
  libs=$(ldd "$bundle/pabd" "$bundle/test_cuda_device" | awk '/=> \// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libdl|libpthread|librt)\.so')
  echo "$libs" | grep -E '/(libstdc\+\+|libgcc_s)\.so' | xargs -r cp -L -t "$bundle/lib-cxx"
  echo "$libs" | grep -v -E '/(libstdc\+\+|libgcc_s)\.so' | xargs -r cp -L -t "$bundle/lib"
  du -sh "$bundle"
}

run() {
  [ -x "$bundle/pabd" ] || { echo "gpu_check: $bundle/pabd missing: run '$0 build' first" >&2; exit 1; }
  export LD_LIBRARY_PATH="$PWD/$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # The machine's C++ runtime where it is new enough, else the bundled one.
  "$bundle/pabd" --version >/dev/null 2>&1 ||
    export LD_LIBRARY_PATH="$PWD/$bundle/lib-cxx:$LD_LIBRARY_PATH"
  "$bundle/pabd" --version || { echo "gpu_check: $bundle/pabd does not start here" >&2; exit 1; }
  export PABD_SOURCE_DIR="$PWD"
  mkdir -p "$out"
  local start=$SECONDS
  echo "== the card"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv,noheader ||
    echo "(nvidia-smi not found)"
  echo "== device tests against the CPU (tests/test_cuda_device.cpp) (at $((SECONDS - start)) s)"
  local tests=0
  "$bundle/test_cuda_device" 2>&1 | tee "$out/tests.log" || tests=$?
  if [ "$tests" -ne 0 ]; then
    # The detect stages scan and sort with CUB; the blocks' own scans are the
    # other path (src/cuda/cuda_backend.cu): which one fails?
    echo "== the device tests again with the blocks' scans (PABD_CUDA_BLOCK_SCANS=1)"
    if PABD_CUDA_BLOCK_SCANS=1 "$bundle/test_cuda_device" >"$out/tests_block_scans.log" 2>&1; then
      echo "gpu_check: with the blocks' scans the device tests pass: CUB's path is at fault"
    else
      echo "gpu_check: the device tests fail with the blocks' scans too"
    fi
    grep -E "^gpu-compare|PASSED|FAILED" "$out/tests_block_scans.log" || true
  fi
  # Timings: the paper's Table 2 scenes within a 2 s budget each, then the
  # piles for fixed steps after warm-up (pile_50_heavy: the ball hits from
  # step 1, so its timed steps are the impact's, as the paper times them).
  local table2=(ball_into_stack mass_ratio_stack heavy_chain heavy_chain_no_al windmill_piles
    robot_dog robot_dog_sand linkage gear_linkage jeeps_sand sailboat spring_net)
  local scenes=()
  for s in "${table2[@]}"; do [ -f "scenes/$s.json" ] && scenes+=("scenes/$s.json"); done
  for device in cuda cpu; do
    echo "== pabd bench --device $device: Table 2 (at $((SECONDS - start)) s)"
    "$bundle/pabd" bench "${scenes[@]}" --device "$device" --threads "$jobs" --max-seconds 2 \
      --warmup 2 --quiet --csv "$out/table2_$device.csv" | tee "$out/table2_$device.md" ||
      echo "gpu_check: pabd bench --device $device failed (status $?)"
    echo "== pabd bench --device $device: piles (at $((SECONDS - start)) s)"
    "$bundle/pabd" bench scenes/pile_20.json scenes/pile_30.json scenes/pile_50_heavy.json \
      --device "$device" --threads "$jobs" --steps 5 --warmup 1 --max-seconds 0 --max-bodies 0 \
      --quiet --csv "$out/piles_$device.csv" | tee "$out/piles_$device.md" ||
      echo "gpu_check: pabd bench --device $device failed (status $?)"
  done
  echo "== summary (at $((SECONDS - start)) s)"
  python3 scripts/gpu_summary.py --out "$out" | tee "$out/summary.md"
  [ "$tests" -eq 0 ] || { echo "gpu_check: device tests failed (status $tests)"; exit 1; }
}

case "$mode" in
  build) build ;;
  run) run ;;
  all) build && run ;;
  *) echo "usage: $0 [build|run]" >&2; exit 2 ;;
esac
