#!/usr/bin/env bash
# Sinew's own scene benchmarks in one table (`make bench`): every scene of
# the scene runner (bench/SceneRunner.cpp, scenes from bench/Scenes.h), one
# process each, with µs per step, µs per step per component, peak memory and
# what the runner prints besides (energy change, joint error, contacts, the
# Impulse solver's corrections per second). The micro kernels are Google
# Benchmark programs: `make bench-micro`.
#   bench/run.sh BUILD_DIR
set -uo pipefail
scene=${1:?usage: run.sh BUILD_DIR}/bench/sinew_scene
[ -x "$scene" ] || { echo "run.sh: $scene not built" >&2; exit 1; }

# name N steps [integrator]
runs=(
  "net 30 200" "net 100 50" "chain 1000 200"
  "hinge 10 1000" "hinge 100 500" "hinge 1000 100" "loop 8 1000"
  # the same chains under the three solutions of the constraints (issue 6)
  "hinge 10 1000 AlphaBeta:0.5" "hinge 100 500 AlphaBeta:0.5" "hinge 1000 100 AlphaBeta:0.5" "loop 8 1000 AlphaBeta:0.5"
  "hinge 10 500 Impulse" "hinge 100 100 Impulse" "hinge 1000 10 Impulse" "loop 8 1000 Impulse"
  "ball 10 500 Impulse" "ball 100 100 Impulse" "ball 1000 10 Impulse"
  # over-relaxed (impulseRelaxation 1.5): fewer corrections for the same tolerances
  "hinge 10 500 Impulse:1.5" "loop 8 1000 Impulse:1.5"
  # reduced coordinates: the articulated-body algorithm, loops and limits by impulses
  "hinge 10 2000 Articulated" "hinge 100 1000 Articulated" "hinge 1000 200 Articulated" "loop 8 2000 Articulated"
  "ball 10 2000 Articulated" "ball 100 1000 Articulated"
  "femhex 1000 20" "femtet 4000 20"
  # hard incompressibility (a volume row per element or node): MUMPS's LDLᵀ with pivoting
  "femhexinc 1000 10" "femtetinc 4000 10"
  "stack 10 1000" "pile 10 1000"
  # the 100-box pile over its first 2 s (the peers' scene; ContactLCP with its stall rule)
  "pile 100 2000"
  # needs the tetgen program; reported as failed without it
  "femball 3 30"
)

source "$(dirname "$0")/header.sh"
bench_header "Sinew scene benchmarks"
echo "| scene | N | steps | integrator | µs/step | µs/step/component | peak RSS (MiB) | also |"
echo "|---|---:|---:|---|---:|---:|---:|---|"
for r in "${runs[@]}"; do
  read -r name n steps integ <<< "$r"
  out=$("$scene" "$name" "$n" "$steps" $integ 2>&1)
  last=$(echo "$out" | grep 'us/step,' | tail -1)
  us=$(echo "$last" | sed -n 's/.* \([0-9.e+]*\) us\/step,.*/\1/p')
  per=$(echo "$last" | sed -n 's/.* \([0-9.e+]*\) us\/step\/component.*/\1/p')
  rss=$(echo "$last" | sed -n 's/.*peak RSS \([0-9]*\) KiB.*/\1/p')
  also=$(echo "$out" | grep -v 'us/step,' | sed "s/^$name $n: //" | paste -sd ';' - | sed 's/|/\\|/g')
  mib=$(awk -v k="${rss:-0}" 'BEGIN {printf "%.1f", k / 1024}')
  echo "| $name | $n | $steps | ${integ:-ConstrainedBackwardEuler} | ${us:-failed} | ${per} | $mib | $also |"
done
