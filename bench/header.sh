# Sourced by the bench scripts: the title, date, machine and revision that
# open each results table.
#   bench_header "TITLE" ["NOTE"]
bench_header() {
  echo "# $1, $(date -u +%Y-%m-%d)"
  echo
  echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores;" \
    "Sinew $(git -C "$(dirname "${BASH_SOURCE[0]}")/.." describe --always --dirty 2>/dev/null).${2:+ $2}"
  echo
}
