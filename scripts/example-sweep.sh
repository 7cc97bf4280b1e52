#!/bin/sh
# The shipped sweep example: the 2017 big.LITTLE phone (the calibration
# workload) over little x big clock frequency, with the big core's cpu_relax
# a YIELD and with the WFE back-off; 98 points of 20 ms each (about 15 s on
# 2 cores). Then the heatmap of the little core's share, starved cells outlined.
#   sh scripts/example-sweep.sh [OUT_DIR]      (default: example-sweep)
set -eu
cd "$(dirname "$0")/.."
out=${1:-example-sweep}
cohsim=./build/cohsim
$cohsim sweep configs/calibration/asr_freq_skew_no_backoff.yaml \
    --vary clusters.little.freq=600MHz:1.8GHz:200MHz \
    --vary clusters.big.freq=600MHz:2.4GHz:300MHz \
    --vary workload.threads.1.cpu_relax=yield,wfe_backoff \
    --set run.duration=20ms --out "$out"
$cohsim plot "$out" --x clusters.little.freq --y clusters.big.freq --metric share
