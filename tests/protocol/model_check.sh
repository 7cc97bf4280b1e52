#!/bin/sh
# The protocol model-checked by rumur (scripts/model-check.sh), from the
# Murphi model `cohsim protocol --murphi` generates from the simulator's tables.
#   model_check.sh COHSIM SOURCE_DIR full ARGS...   exhaustive: no error, states explored reported
#   model_check.sh COHSIM SOURCE_DIR mutant EXPECT ARGS...
#       a cell broken on purpose: the verifier must fail with EXPECT (a property's
#       name) and print the trace that leads there.
#   model_check.sh COHSIM SOURCE_DIR edited EXPECT SED ARGS...
#       the same for a part of the model the tables do not give (app/protocol_model.m):
#       the generated model is edited by the sed expression SED, which must change it.
set -u
cohsim=$1 src=$2 mode=$3
shift 3
expect=""
out=$(mktemp)
wrapper=$(mktemp)
trap 'rm -f "$out" "$wrapper"' EXIT
if [ "$mode" = mutant ]; then expect=$1; shift; fi
if [ "$mode" = edited ]; then
  expect=$1 MC_SED=$2 MC_COHSIM=$cohsim
  shift 2
  export MC_SED MC_COHSIM
  "$cohsim" protocol --murphi "$@" > "$out" || exit 1
  if [ "$(sed -e "$MC_SED" "$out" | cmp -s - "$out"; echo $?)" = 0 ]; then
    echo "FAIL: the edit '$MC_SED' does not change the model"; exit 1
  fi
  printf '#!/bin/sh\n"$MC_COHSIM" "$@" | sed -e "$MC_SED"\n' > "$wrapper"
  chmod +x "$wrapper"
  cohsim=$wrapper mode=mutant
fi
# A broken model is searched by one thread: which violation a parallel search
# meets first varies from run to run; one thread's breadth-first order does not.
threads=2
[ "$mode" = mutant ] && threads=1
COHSIM=$cohsim RUMUR_THREADS=$threads sh "$src/scripts/model-check.sh" "$@" > "$out" 2>&1
rc=$?
summary() { grep -v "states explored\|liveness constraints proved" "$out" | tail -n "$1"; }
if [ "$mode" = full ]; then
  if [ $rc -ne 0 ] || ! grep -q "No error found" "$out"; then
    echo "FAIL: the verifier reported an error (exit $rc) on the simulator's own tables:"; summary 80; exit 1
  fi
  states=$(sed -n 's/^[[:space:]]*\([0-9][0-9]*\) states, \([0-9][0-9]*\) rules fired.*/\1/p' "$out" | tail -1)
  # a model that explores only a handful of states checks nothing: 3 caches on one line reach over a million
  if [ -z "$states" ] || [ "$states" -lt "${MIN_STATES:-100000}" ]; then
    echo "FAIL: only '${states}' states explored"; summary 20; exit 1
  fi
  echo "model-check $*: no error, $states states explored"; summary 6
  exit 0
fi
if [ $rc -ne 1 ]; then echo "FAIL: the verifier should find the broken cell (exit 1), exit $rc:"; summary 40; exit 1; fi
grep -q "$expect" "$out" || { echo "FAIL: expected a violation of '$expect':"; summary 60; exit 1; }
grep -q "fired\." "$out" || { echo "FAIL: no counterexample trace:"; summary 60; exit 1; }
echo "model-check $*: the broken cell is caught ($expect), with its trace:"
grep -E "failed|Rule .* fired|error" "$out" | head -40
