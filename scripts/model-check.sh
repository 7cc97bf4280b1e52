#!/bin/sh
# Model-checks cohsim's coherence protocol exhaustively: generates the Murphi
# model from the simulator's tables (`cohsim protocol --murphi ARGS...`),
# compiles it with rumur and a C compiler, and runs the verifier.
#
#   scripts/model-check.sh [--keep DIR] [cohsim protocol --murphi options...]
#   scripts/model-check.sh --caches 3 --lines 1 --granules 2
#   scripts/model-check.sh --mutate cache:S:Inv=S+snp_ack     (expect a counterexample)
#
# Prints the verifier's report (states explored, rules fired, or the first
# property violated with the trace that leads to it). Exit status: 0 when no
# error was found, 1 when the verifier found one, 2 when the model could not
# be generated or built. Needs rumur and cc (scripts/setup.sh installs both).
# COHSIM names the cohsim binary (default: cohsim beside this script's build
# tree, else on PATH); RUMUR_THREADS the verifier's threads (default: all).
set -u
keep=""
if [ "${1:-}" = "--keep" ]; then keep=$2; shift 2; fi
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${COHSIM:-}" ]; then
  if [ -x "$here/../build/cohsim" ]; then COHSIM=$here/../build/cohsim; else COHSIM=cohsim; fi
fi
for tool in rumur cc; do
  command -v $tool >/dev/null 2>&1 || { echo "model-check: '$tool' not found (install it: scripts/setup.sh, or apt-get install rumur gcc)" >&2; exit 2; }
done
dir=${keep:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "$keep" ] || trap 'rm -rf "$dir"' EXIT
"$COHSIM" protocol --murphi "$@" > "$dir/model.m" || exit 2
threads=""
[ -n "${RUMUR_THREADS:-}" ] && threads="--threads $RUMUR_THREADS"
# shellcheck disable=SC2086
rumur --colour off $threads --output "$dir/model.c" "$dir/model.m" || { echo "model-check: rumur rejected the model ($dir/model.m)" >&2; exit 2; }
# -mcx16: the verifier's lock-free queues use 16-byte compare-and-swap on x86-64
cflags="-std=gnu11 -O2"
[ "$(uname -m)" = x86_64 ] && cflags="$cflags -mcx16"
# shellcheck disable=SC2086
cc $cflags -o "$dir/model" "$dir/model.c" -lpthread || { echo "model-check: the verifier did not compile" >&2; exit 2; }
"$dir/model"
