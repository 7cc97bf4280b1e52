#!/bin/sh
# Every shipped litmus test at length (label "soak"): BATCHES x ITERATIONS runs
# each, which must agree with the test's stated verdict (cohsim litmus --check).
#   litmus_soak.sh COHSIM SOURCE_DIR [BATCHES] [ITERATIONS]
set -u
cohsim=$1 src=$2 batches=${3:-100} iterations=${4:-1000}
fail=0 total=0
for f in "$src"/workloads/litmus/*.litmus; do
  # a test with LSE instructions in its columns runs on cores that have them
  platform=""
  if grep -qiE '(^|\|)[[:space:]]*(CAS|LDADD|SWP|LDSET)[A-Z]*[[:space:]]' "$f"; then platform="--platform dynamiq_4xa55_4xa75"; fi
  out=$("$cohsim" litmus "$f" --check --batches "$batches" --iterations "$iterations" --seed 7 $platform) || { echo "FAIL: $f"; echo "$out"; fail=1; }
  echo "$out" | grep -E "^Observation|^Expected"
  total=$((total + batches * iterations))
done
echo "litmus soak: $total runs"
exit $fail
