#!/usr/bin/env bash
# Runs the libFuzzer targets built in build-fuzz (see docs/fuzzing.md).
#   tools/fuzz.sh smoke          a short run of each target (CI)
#   tools/fuzz.sh long [RUNS]    RUNS inputs per target (default 1000000)
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-smoke}
runs=${2:-1000000}
[ "$mode" = smoke ] && runs=3000

# Seed folders per target: the text corpora for the parser; the other targets
# write their own seeds (`-write_seeds=DIR`) into an empty corpus: exe_loader
# and vm_run build every module of the sources below that `graft build`
# accepts (fuzz/SeedExecutables.h).
seeds_for() {
  case "$1" in
    parser) echo fuzz/inputs/parser tests/text tests/verify tests/diff tests/passes examples ;;
    *) ;;
  esac
}

status=0
for target in build-fuzz/fuzz/graft-fuzz-*; do
  [ -x "$target" ] || continue
  name=${target##*/graft-fuzz-}
  corpus="build-fuzz/corpus-$name"
  mkdir -p "$corpus" "build-fuzz/artifacts-$name"
  if [ "$name" != parser ] && [ -z "$(ls -A "$corpus")" ]; then
    "$target" -write_seeds="$corpus" -seed_sources=examples,fuzz/inputs/exe_loader,tests/passes \
      >/dev/null 2>&1 || true
  fi
  max_len=4096
  # Built executables run to several KiB.
  [ "$name" = exe_loader ] || [ "$name" = vm_run ] && max_len=16384
  for dir in $(seeds_for "$name"); do
    [ -d "$dir" ] && find "$dir" -maxdepth 2 -type f -size -64k -exec cp -n {} "$corpus"/ \;
  done
  log="build-fuzz/fuzz-$name.log"
  echo "fuzz: $name, $runs runs"
  if ! UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$target" "$corpus" -runs="$runs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts-$name/" >"$log" 2>&1; then
    status=1
    tail -40 "$log"
  fi
  grep -E "^stat::number_of_executed_units|^Done" "$log" || true
done
exit $status
