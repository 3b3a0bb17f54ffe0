#!/usr/bin/env bash
# Runs every peer program found in a build folder on every scene of
# bench/peers/PeerScene.h, one after another, and prints one Markdown
# table: median µs per step of RUNS runs after a warm-up run, the ratio to
# Sinew's, energy drift, constraint error and each scene's result. Used by
# `make bench-peers`; also writes the table to bench/results/ when OUT is set.
#   bench/peers/run.sh BUILD_DIR [OUT.md]
set -uo pipefail
build=${1:?usage: run.sh BUILD_DIR [OUT.md]}
out=${2:-}
bin=$build/bench/peers
RUNS=${RUNS:-3}
LIMIT=${LIMIT:-300}  # seconds per run; a slower run is reported as a timeout
SCENES=${SCENES:-}  # an extended regex over "scene|N|h|steps|mu" to run only some rows, e.g. 'pile\|100'
ENGINES=${ENGINES:-}  # an extended regex over engine labels, e.g. '^(sinew|bullet)$'

# engine label → command (a program and its trailing engine argument)
declare -a engines=()
add() {
  [ -x "$bin/$2" ] || return 0
  [ -z "$ENGINES" ] || [[ $1 =~ $ENGINES ]] || return 0
  engines+=("$1|$bin/$2|${3:-}")
}
add sinew peer_sinew
add sinew-impulse peer_sinew Impulse
add sinew-articulated peer_sinew Articulated
add mujoco peer_mujoco
add ode peer_ode
add ode-quick peer_ode quick
add bullet peer_bullet
add bullet-multibody peer_bullet multibody
add simbody peer_simbody
add dart peer_dart

# scene|N|h|steps|mu — steps cover 1 s (2 s for the piles, which land first).
scenes=(
  "chain|1|0.001|1000|0" "chain|10|0.001|1000|0" "chain|100|0.001|1000|0" "chain|1000|0.001|200|0"
  "chain|1|0.01|100|0" "chain|10|0.01|100|0" "chain|100|0.01|100|0" "chain|1000|0.01|100|0"
  "loop|8|0.001|1000|0"
  "pile|10|0.001|2000|0.5" "pile|100|0.001|2000|0.5"
  "incline|1|0.001|1000|0.2" "incline|1|0.001|1000|0.5" "incline|1|0.001|1000|0.7"
)

# Where an engine cannot run a scene at all (no multibody piles; the dense
# dWorldStep on 1000 links), say so instead of waiting for the limit.
skip() {
  case "$1|$2|$3" in
    bullet-multibody\|pile\|* | bullet-multibody\|incline\|*) return 0 ;;
    sinew-impulse\|pile\|100) return 0 ;;  # the MLCP's timeout tells already
    sinew-articulated\|pile\|* | sinew-articulated\|incline\|*) return 0 ;;  # no contact
    ode\|chain\|1000) return 0 ;;
  esac
  return 1
}

median() { sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]; else print "nan"}'; }

run_one() {  # prints the result line of one run, or nothing on failure/timeout
  local cmd=$1 scene=$2 n=$3 h=$4 steps=$5 mu=$6 extra=$7
  timeout "$LIMIT" "$cmd" "$scene" "$n" "$h" "$steps" "$mu" $extra 2>/dev/null | tail -1
}

table=$(mktemp)
for s in "${scenes[@]}"; do
  [ -z "$SCENES" ] || [[ $s =~ $SCENES ]] || continue
  IFS='|' read -r scene n h steps mu <<< "$s"
  sinew_us=""
  for e in "${engines[@]}"; do
    IFS='|' read -r label cmd extra <<< "$e"
    if skip "$label" "$scene" "$n"; then
      echo "$scene|$n|$h|$mu|$label|n/a|||||" >> "$table"
      continue
    fi
    line=$(run_one "$cmd" "$scene" "$n" "$h" "$steps" "$mu" "$extra")  # warm-up
    if [ -z "$line" ]; then
      echo "$scene|$n|$h|$mu|$label|timeout (> ${LIMIT} s)|||||" >> "$table"
      continue
    fi
    times=()
    for ((k = 0; k < RUNS; ++k)); do
      line=$(run_one "$cmd" "$scene" "$n" "$h" "$steps" "$mu" "$extra")
      [ -n "$line" ] && times+=("$(echo "$line" | awk '{print $6}')")
    done
    us=$(printf '%s\n' "${times[@]}" | median)
    read -r _ _ _ _ _ _ drift err result <<< "$line"
    [ "$label" = sinew ] && sinew_us=$us
    ratio=$(awk -v a="$us" -v b="$sinew_us" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print ""}')
    echo "$scene|$n|$h|$mu|$label|$us|$ratio|$drift|$err|$result" >> "$table"
    echo "  $label $scene N=$n h=$h mu=$mu: $us us/step" >&2
  done
done

{
  echo "# Peer benchmarks, $(date -u +%Y-%m-%d)"
  echo
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores."
  echo "Sinew $(git -C "$(dirname "$0")/../.." describe --always --dirty 2>/dev/null);" \
    "$(dpkg-query -W -f='${Package} ${Version}; ' libmujoco-dev libode-dev libbullet-dev libsimbody-dev libdart-dev 2>/dev/null)"
  echo "Median of $RUNS runs after a warm-up (\`make bench-peers\`; scenes in bench/peers/PeerScene.h)."
  echo "Ratio: µs per step over Sinew's in the same scene (below 1: the peer is faster)."
  echo "Energy drift: |ΔE| / (N m g · 1 m) at the end; constraint error: largest hinge gap (m);"
  echo "result: chain/loop the last link's centre z (m), pile the largest box speed (m/s),"
  echo "incline the slide (m; analytic g(sin θ − μ cos θ)t²/2 = 1.6013, 0.3282, 0 for μ = 0.2, 0.5, 0.7)."
  echo
  echo "| Scene | N | h | μ | Engine | µs/step | ratio | energy drift | constraint error | result |"
  echo "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
  awk -F'|' '{printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, ($1 == "incline" || $1 == "pile") ? $4 : "", $5, $6, $7, $8, $9, $10}' "$table"
} > "$table.md"
cat "$table.md"
[ -n "$out" ] && mkdir -p "$(dirname "$out")" && cp "$table.md" "$out" && echo "wrote $out" >&2
rm -f "$table" "$table.md"
