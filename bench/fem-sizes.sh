#!/usr/bin/env bash
# The FEM benchmark of issue 4 (`make bench-fem`, several minutes): the
# neo-Hookean hex and tet beams of about 1k, 10k and 100k elements under
# ConstrainedBackwardEuler at h = 10 ms, one process each, with ms per step
# split into assembly and solve, peak memory, and the ratio of a step (and
# of its assembly) to one numeric sparse factorization of the same matrix.
#   bench/fem-sizes.sh BUILD_DIR
set -uo pipefail
scene=${1:?usage: fem-sizes.sh BUILD_DIR}/bench/sinew_scene
[ -x "$scene" ] || { echo "fem-sizes.sh: $scene not built" >&2; exit 1; }

# name N steps: fewer steps for the larger models (two more run untimed first),
# more for the smallest, whose millisecond steps vary most
runs=("femhex 1000 50" "femhex 10000 5" "femhex 100000 2" "femtet 1000 300" "femtet 10000 20" "femtet 100000 3")

source "$(dirname "$0")/header.sh"
bench_header "Sinew FEM beams at three sizes" "OPENBLAS_NUM_THREADS=1."
echo "| scene | elements | nodes | ms/step | assembly ms | solve ms (backend) | one factorization ms | step / factorization | assembly / factorization | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"
for r in "${runs[@]}"; do
  read -r name n steps <<< "$r"
  out=$(OPENBLAS_NUM_THREADS=1 "$scene" "$name" "$n" "$steps" 2>&1)
  split=$(echo "$out" | grep "^$name: .* elements")
  fact=$(echo "$out" | grep '^one factorization')
  last=$(echo "$out" | grep 'us/step,' | tail -1)
  elems=$(echo "$split" | sed -n 's/^[a-z]*: \([0-9]*\) elements.*/\1/p')
  nodes=$(echo "$split" | sed -n 's/.* \([0-9]*\) nodes.*/\1/p')
  ms=$(echo "$split" | sed -n 's/.*nodes, \([0-9.e+]*\) ms\/step.*/\1/p')
  asm=$(echo "$split" | sed -n 's/.*assembly \([0-9.e+]*\) ms.*/\1/p')
  sol=$(echo "$split" | sed -n 's/.*solve \([0-9.e+]*\) ms (\([^)]*)\)).*/\1 (\2)/p')
  fms=$(echo "$fact" | sed -n 's/.*): \([0-9.e+]*\) ms;.*/\1/p')
  rstep=$(echo "$fact" | sed -n 's/.*step \/ factorization \([0-9.]*\),.*/\1/p')
  rasm=$(echo "$fact" | sed -n 's/.*assembly \/ factorization \([0-9.]*\).*/\1/p')
  rss=$(echo "$last" | sed -n 's/.*peak RSS \([0-9]*\) KiB.*/\1/p')
  mib=$(awk -v k="${rss:-0}" 'BEGIN {printf "%.0f", k / 1024}')
  echo "| $name | ${elems:-failed} | $nodes | $ms | $asm | $sol | $fms | $rstep | $rasm | $mib |"
done
