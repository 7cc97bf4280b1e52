#!/bin/sh
# Runs one libFuzzer target: first every saved regression input (each once;
# a crash found earlier stays fixed), then RUNS executions from the seed
# corpus (the shipped files), copied to a temporary folder so the fuzzer's
# new inputs never land in the source tree. RUNS may be "time:SECONDS".
# Usage: run_fuzz.sh FUZZER RUNS REGRESSION_DIR SEED_FILE...
# $COHSIM_FUZZ_MAX_LEN: the longest input in bytes (default 8192; an ELF
# executable's seeds are ~66 KiB).
set -eu
fuzzer=$1; runs=$2; regressions=$3; shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/corpus" "$tmp/empty"
cd "$tmp/empty"  # an assembly input's .include finds no file of ours
for f in "$@"; do cp "$f" "$tmp/corpus/$(echo "$f" | tr '/' '_')"; done
if ls "$regressions"/* > /dev/null 2>&1; then
  "$fuzzer" "$regressions"/* > "$tmp/regressions.log" 2>&1 || { cat "$tmp/regressions.log"; echo "FAIL: a regression input fails again"; exit 1; }
  echo "regressions: $(ls "$regressions" | wc -l) inputs pass"
fi
case "$runs" in
  time:*) limit="-max_total_time=${runs#time:}" ;;
  *) limit="-runs=$runs" ;;
esac
# -seed: the same executions every CI run; -timeout: a hang is a finding.
"$fuzzer" -seed=1 $limit -timeout=10 -rss_limit_mb=2048 -max_len=${COHSIM_FUZZ_MAX_LEN:-8192} -artifact_prefix="$tmp/" "$tmp/corpus" > "$tmp/fuzz.log" 2>&1 || {
  tail -40 "$tmp/fuzz.log"
  for a in "$tmp"/crash-* "$tmp"/timeout-* "$tmp"/leak-* "$tmp"/oom-*; do
    [ -e "$a" ] && { echo "FAIL: the input that fails (base64; save it in $regressions/):"; base64 "$a"; }
  done
  exit 1
}
grep -E '^#[0-9]+.*(DONE|pulse)' "$tmp/fuzz.log" | tail -1
echo "fuzz OK: $(grep -c '' "$tmp/fuzz.log") log lines"
