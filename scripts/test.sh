#!/usr/bin/env bash
# Builds and runs every test: formatting check, Release build + CTest, the same
# tests under AddressSanitizer + UndefinedBehaviorSanitizer, and the CUDA
# build (the shared kernels and the device backend) when nvcc is present.
#   scripts/test.sh           everything (what CI runs)
#   scripts/test.sh --quick   Release build + CTest only
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
jobs=$(nproc 2>/dev/null || echo 2)

scripts/install-deps.sh

if [ $quick -eq 0 ]; then
  echo "== clang-format check"
  git ls-files '*.cpp' '*.h' '*.cu' | xargs clang-format --dry-run --Werror
  echo "== layering: no folder of src/ includes another that includes it back"
  python3 scripts/folder_graph.py >/dev/null || python3 scripts/folder_graph.py
fi

echo "== Release build and tests (at $SECONDS s)"
scripts/build.sh
# ctest runs $jobs tests side by side, each with up to 2 OpenMP threads. At
# a barrier libgomp's threads spin by default, and on 2 cores two 2-thread
# tests spin against each other: 22 of the tests (golden, determinism, device
# step) took 52.7 s of wall time with the default and 6.9 s passive. Results
# do not depend on it (bit-identical across thread counts and schedules).
# pabd's own default stays active: alone on the cores it is faster
# (ball_into_stack at 2 threads, 16.2 ms a step against 23.0 passive).
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ $quick -eq 0 ]; then
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests (at $SECONDS s)"
  # -O1 with line tables only, as sanitizer builds usually are: reports keep
  # their file and line, and the build takes far less than -O2 -g.
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPABD_SANITIZE=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DPABD_BUILD_BENCHMARKS=OFF -DPABD_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build build-asan -j"$jobs"
  # Seven long scenes run in the Release pass only: they repeat, for minutes
  # under the sanitizers, code paths that shorter scenes of the same tests
  # already drive (pyramids: SmallPyramid; golden: Determinism; windmill and
  # heavy chain: SceneArrays and Acceleration's other cases; the 28 jeeps in
  # sand and the two sailboat voyages, 320, 319 and 152 s under the
  # sanitizers: FieldScenes.ThreadCountsAndSnapshotsGiveTheSameBits runs both
  # scenes for fewer steps). Without them the sanitizer pass takes about 12
  # minutes less, which keeps CI under 30 minutes.
  release_only='LargePyramid|Golden\.ReferenceRuns|WindmillBladesSweep|ColoredSweepsAndChebyshevSpeedUpTheHeavyChain'
  release_only+='|TwentyEightJeepsWadeThroughSand|TheSailboatFloatsSailsDownwind|TheSailboatTurnsWhenTheSteering'
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs" -E "$release_only"

  echo "== fuzzing: the scene loader and the OBJ reader, 60 s (scripts/fuzz.sh) (at $SECONDS s)"
  # Its own clang build (build-fuzz, only the two libraries the targets link);
  # exits 1 on any crash, hang, leak or input over 2 GB.
  scripts/fuzz.sh 60

  nvcc=$(command -v nvcc || true)
  [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
  if [ -n "$nvcc" ]; then
    echo "== CUDA: the kernels and the device backend with nvcc ($nvcc) (at $SECONDS s)"
    # One architecture (Hopper, the GPU machines') is enough to prove that nvcc
    # accepts the kernels, at half the compile time of src/cuda's default two.
    # The backend is linked into pabd and the device test, which runs here
    # with every case skipped (no GPU): what a build without a device does.
    # The CLI and the viewer are not built again here: none of their sources
    # depends on PABD_CUDA, and the device test already links an executable
    # against pabd with the backend (17 sources fewer; most of this phase is
    # nvcc's two translation units, about 4 minutes on 2 cores).
    cmake -S . -B build-cuda -DPABD_CUDA_COMPILE_CHECK=ON -DPABD_CUDA=ON \
      -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DPABD_BUILD_BENCHMARKS=OFF -DPABD_BUILD_EXAMPLES=OFF -DPABD_BUILD_PYTHON=OFF >/dev/null
    cmake --build build-cuda --target pabd_cuda_kernels pabd_cuda_backend test_cuda_device \
      -j"$jobs"
    build-cuda/tests/test_cuda_device
  else
    echo "== CUDA compile check skipped: nvcc not found"
  fi
fi
echo "== all checks passed ($SECONDS s)"
