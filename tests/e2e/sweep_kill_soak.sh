#!/bin/sh
# A sweep SIGKILLed 20 times while it runs, resumed each time (label "soak"):
# at the end its results.csv equals an uninterrupted sweep's, no point that
# had finished ran again (its files keep their times), and no temporary
# point is left. (The short version: Cli.SweepKilledAndResumedEqualsUninterrupted.)
#   sweep_kill_soak.sh COHSIM [KILLS]
set -u
cohsim=$1 kills=${2:-20}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
args="sweep --vary run.seed=1:60:1 --set run.duration=20ms -j 2"
# shellcheck disable=SC2086
"$cohsim" $args --out whole > whole.log 2>&1 || { echo "FAIL: the uninterrupted sweep"; cat whole.log; exit 1; }
# each finished point with its cores.csv's modification time (ns); a point
# killed between writing its files and renaming points/K.tmp into place is
# not finished (the resume runs it again)
stamps() { for p in cut/points/[0-9][0-9][0-9][0-9]/; do [ -f "$p/cores.csv" ] && stat -c '%n %.9Y' "$p/cores.csv"; done 2>/dev/null | sort; }
i=0
while [ $i -lt "$kills" ]; do
  stamps > before.txt
  # shellcheck disable=SC2086
  "$cohsim" $args --out cut > /dev/null 2>&1 &
  pid=$!
  sleep "0.$(( (i * 37) % 9 + 1 ))"   # 0.1 to 0.9 s into the run
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  sleep 0.3   # its orphaned point runs die with it
  # every point finished before this kill is still there, untouched
  stamps > now.txt
  changed=$(comm -23 before.txt now.txt)
  [ -z "$changed" ] || { echo "FAIL: kill $i: recomputed or lost: $changed"; exit 1; }
  i=$((i + 1))
done
done_before=$(stamps | wc -l)
# shellcheck disable=SC2086
"$cohsim" $args --out cut > resume.log 2>&1 || { echo "FAIL: the last resume"; cat resume.log; exit 1; }
grep -q "$done_before already done" resume.log || { echo "FAIL: the resume did not reuse the $done_before finished points"; cat resume.log; exit 1; }
cmp -s whole/results.csv cut/results.csv || { echo "FAIL: results.csv differs from the uninterrupted sweep's"; diff whole/results.csv cut/results.csv | head; exit 1; }
if ls cut/points | grep -q '\.tmp'; then echo "FAIL: temporary points left"; ls cut/points; exit 1; fi
echo "sweep kill soak: $kills SIGKILLs, $done_before of 60 points done before the last resume, results identical"
