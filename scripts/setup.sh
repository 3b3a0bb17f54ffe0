#!/usr/bin/env bash
# Installs the Debian packages Sinew needs to build and test, if missing.
# Idempotent: installs nothing when everything is present. As root it runs
# apt-get; otherwise it prints the command to run and fails. With --peers it
# also installs the peer engines of `make bench-peers` (never needed to build
# or test Sinew).
set -euo pipefail

PACKAGES=(
  g++ cmake make pkg-config ccache
  libeigen3-dev libsuitesparse-dev libopenblas0-pthread
  libmumps-seq-dev  # LDLT with pivoting for large indefinite systems (docs/solvers.md)
  libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev libtbb-dev
  libgmp-dev  # exact arithmetic of the AJL_CONTOUR collider's predicates
  tetgen  # the program FemFactory::createFromMesh runs (AGPL-3+, not linked; see docs/fem.md)
)
if [ "${1:-}" = --peers ]; then
  PACKAGES+=(libmujoco-dev libode-dev libbullet-dev libsimbody-dev libdart-dev)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} required packages are installed"
  exit 0
fi

echo "setup: missing packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: run as root to install them, or install them yourself:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y --no-install-recommends "${missing[@]}"
echo "setup: installed ${missing[*]}"
