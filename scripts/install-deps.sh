#!/usr/bin/env bash
# Installs the Debian 12 packages pabd builds with. Idempotent: installs only
# what is missing, and runs `apt-get update` only when something is.
set -euo pipefail

packages=(
  build-essential cmake git pkg-config
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  clang-format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
