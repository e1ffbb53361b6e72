#!/usr/bin/env bash
# Installs the Debian 12 packages pabd builds with. Idempotent: installs only
# what is missing, and runs `apt-get update` only when something is.
set -euo pipefail

packages=(
  build-essential cmake git pkg-config
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  # convex hulls (reentrant qhull) and OBJ triangle meshes
  libqhull-dev libtinyobjloader-dev
  clang-format
  # scripts/fuzz.sh: clang 14 and its libFuzzer / sanitizer runtimes
  clang libclang-rt-14-dev
  # the interactive viewer: GLFW, OpenGL (Mesa), Dear ImGui; Xvfb for its tests
  libglfw3-dev libgl-dev libgl1-mesa-dri libimgui-dev libstb-dev xvfb xauth
  # the HTML player's browser test
  chromium
  # the peer engines of bench/peers/ (optional at configure time); MuJoCo also
  # compiles MJCF models for the loader, and its sample models are test inputs
  libbullet-dev libode-dev libmujoco-dev libmujoco-samples
  # URDF robot models (the loader of src/scene/)
  liburdfdom-dev
  # docs/benchmarks.md's plot (scripts/benchmark_report.py, run with /usr/bin/python3)
  python3-matplotlib
  # the Python module (python/): pybind11, Debian's interpreter headers and numpy
  pybind11-dev python3-dev python3-numpy
  # examples/python/sweep_dask.py: Dask and its distributed scheduler (LocalCluster)
  python3-dask python3-distributed
)
# Node.js and npm bundle three.js into the HTML player at build time; use the
# machine's own if it has one.
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages present"
else
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm packages pinned by web/package-lock.json; reinstalled only when the lock
# file changed since the last install.
web="$(dirname "$0")/../web"
stamp="$web/node_modules/.pabd-lock"
if ! cmp -s "$web/package-lock.json" "$stamp" 2>/dev/null; then
  echo "install-deps: npm ci in web/"
  (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$web/package-lock.json" "$stamp"
else
  echo "install-deps: web/node_modules up to date"
fi
