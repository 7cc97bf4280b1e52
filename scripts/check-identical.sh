#!/bin/sh
# Checks that a change keeps cohsim's results byte-identical: runs every
# shipped config (configs/default.yaml, configs/calibration/*, configs/teaching/*,
# and each configs/platforms/* under two lock workloads) for a short simulated
# time with two builds, and compares result.json (less host_seconds and, with
# --ignore-events, the kernel's event count) and cores.csv; and the default
# scenario's --trace timeline (its events, in a canonical order) and --explain
# story.
#
#   scripts/check-identical.sh [--base REF] [--duration TIME] [--ignore-events]
#                              [--ignore-key NAME]... [--base-bin FILE] [--new-bin FILE]
#                              [--base-set PATH=VALUE]...
#
# --base REF      the commit to compare against (default HEAD): built once, in
#                 build-identical/REF-SHA (a git worktree), and reused
# --new-bin FILE  the cohsim to check (default: build/cohsim, built from the
#                 work tree first)
# --base-bin FILE a cohsim already built from the base (skips building REF)
# --duration TIME simulated time of each run (default 5ms)
# --ignore-events also ignore the kernel's event count (a speed-up changes it)
# --ignore-key N  also ignore every JSON key N (a counter the change adds)
# --base-set P=V  run the base with --set P=V too; e.g. the accelerations against
#                 the reference timing, with one binary:
#                   --base-bin build/cohsim --new-bin build/cohsim
#                   --base-set run.exact=true --ignore-events --ignore-key exact
#
# Exit status 0 when every run matches, 1 when one differs (its diff is
# printed), 2 on a usage error.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
base=HEAD
duration=5ms
base_bin=""
new_bin=""
ignore_events=0
ignore_keys=""
base_sets=""
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --base-bin) base_bin=$2; shift 2 ;;
    --new-bin) new_bin=$2; shift 2 ;;
    --ignore-events) ignore_events=1; shift ;;
    --ignore-key) ignore_keys="$ignore_keys $2"; shift 2 ;;
    --base-set) base_sets="$base_sets --set $2"; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-identical: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
jobs=$(nproc)

if [ -z "$base_bin" ]; then
  sha=$(git rev-parse --verify "$base^{commit}") || { echo "check-identical: '$base' is not a commit" >&2; exit 2; }
  wt="$top/build-identical/$sha"
  if [ ! -x "$wt/build/cohsim" ]; then
    [ -d "$wt" ] || git worktree add -f --detach "$wt" "$sha" >/dev/null
    cmake -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$wt/build" -j"$jobs" --target cohsim >/dev/null
  fi
  base_bin="$wt/build/cohsim"
fi
if [ -z "$new_bin" ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$jobs" --target cohsim >/dev/null
  new_bin="$top/build/cohsim"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each platform under a workload on two cores of each of its first two
# clusters (or four cores of its only one): the LL/SC ticket lock, and the
# queued spinlock (LSE on the cores that have it).
platform_cores() {
  case "$(basename "$1")" in
    asr_4xa53_4xa73.yaml|exynos5422.yaml|dynamiq_4xa55_4xa75.yaml|rk3588_4xa55_4xa76.yaml) echo "little.0 little.1 big.0 big.1" ;;
    rpi2_4xa7.yaml) echo "cpu.0 cpu.1 cpu.2 cpu.3" ;;
    thunderx2_2s.yaml) echo "s0.0 s0.1 s1.0 s1.1" ;;
    graviton2.yaml) echo "cpu.0 cpu.1 cpu.30 cpu.63" ;;
    altra_q80_26.yaml) echo "cpu.0 cpu.1 cpu.40 cpu.79" ;;
    graviton4.yaml) echo "cpu.0 cpu.1 cpu.47 cpu.95" ;;
    graviton4_2s.yaml) echo "s0.0 s0.1 s1.0 s1.95" ;;
    *) echo "" ;;
  esac
}
configs=""
for f in configs/default.yaml configs/calibration/*.yaml configs/teaching/*.yaml; do
  # Not configs: the calibration case list and the harness fragment it includes.
  case "$(basename "$f")" in cases.yaml|lock_unlock_loop.yaml) continue ;; esac
  configs="$configs $top/$f"
done
# The error paths: programs that break their lock (tests/errors) and, when
# the C workloads are built beside the new binary, each way tests/c/faults.c
# goes wrong; a fault must stop at the same time, naming the same core, with
# the same partial results.
for f in tests/errors/*.yaml; do configs="$configs $top/$f"; done
for f in configs/platforms/*.yaml; do
  cores=$(platform_cores "$f")
  if [ -z "$cores" ]; then
    echo "check-identical: no workload cores listed for $f: add it to platform_cores in $0" >&2
    exit 2
  fi
  for prog in locks/ticket_llsc.s locks/qspinlock.s; do
    name=$(basename "$f" .yaml)-$(basename "$prog" .s)
    {
      echo "include: $top/$f"
      echo "workload:"
      echo "  program: $prog"
      echo "  threads:"
      for c in $cores; do echo "    - {core: $c}"; done
    } > "$work/$name.yaml"
    configs="$configs $work/$name.yaml"
  done
done

# A harness variant no shipped config uses: the 2017 back-off as its patch
# wrote it (a per-CPU word and an exclusive pair per call), with a threshold
# low enough that the big core sleeps several times within the run.
{
  echo "include: $top/configs/calibration/asr_freq_skew_wfe_backoff.yaml"
  echo "workload:"
  echo "  params: {THRESHOLD: 500}"
  echo "  threads: [{core: little.2}, {core: big.3, cpu_relax: wfe_backoff_percpu}]"
} > "$work/wfe_backoff_percpu.yaml"
configs="$configs $work/wfe_backoff_percpu.yaml"

faults_elf=$(cd "$(dirname "$new_bin")" && pwd)/c-workloads/faults.elf
if [ -f "$faults_elf" ]; then
  for fn in undefined_instruction misaligned_exclusive wild_jump stack_overflow no_ret; do
    {
      echo "include: $top/configs/platforms/asr_4xa53_4xa73.yaml"
      echo "workload:"
      echo "  program: $faults_elf"
      echo "  function: $fn"
      echo "  threads: [{core: little.0}, {core: big.1, function: fine}, {core: big.2, function: fine}]"
    } > "$work/fault-$fn.yaml"
    configs="$configs $work/fault-$fn.yaml"
  done
else
  echo "check-identical: $faults_elf not found (the C workloads are built beside cohsim): the fault paths are NOT checked" >&2
fi

# Runs a config with one binary; prints the filtered result files' path.
run_one() {  # bin tag config
  out="$work/$2/$(basename "$3" .yaml)"
  mkdir -p "$out"
  sets=""
  [ "$2" = base ] && sets=$base_sets
  # shellcheck disable=SC2086  # $sets: words on purpose
  "$1" run "$3" --duration "$duration" --out "$out" -q $sets > "$out/stdout" 2> "$out/stderr" || echo "exit status $?" >> "$out/stderr"
  python3 - "$out" "$ignore_events" $ignore_keys <<'PY'
import json, sys, os
out, ignore_events, ignore_keys = sys.argv[1], sys.argv[2] == "1", set(sys.argv[3:])
p = os.path.join(out, "result.json")
if os.path.exists(p):
    j = json.load(open(p))
    def strip(o):
        if isinstance(o, dict):
            o.pop("host_seconds", None)
            for k in ("cohsim_commit", "command_line", "host", "build_type"):
                o.pop(k, None)
            if ignore_events:
                o.pop("events", None)
                o.pop("sim_events", None)
            for k in ignore_keys:
                o.pop(k, None)
            for v in o.values():
                strip(v)
        elif isinstance(o, list):
            for v in o:
                strip(v)
    strip(j)
    open(os.path.join(out, "result.filtered"), "w").write(json.dumps(j, indent=1, sort_keys=True) + "\n")
PY
}

# The teaching views of the default scenario: its timeline and a line's story.
views() {  # bin tag
  out="$work/$2/views"
  mkdir -p "$out"
  sets=""
  [ "$2" = base ] && sets=$base_sets
  # shellcheck disable=SC2086
  "$1" run --duration 200us --out "$out" --trace "$out/trace.json" --explain 0x10000000 $sets > "$out/stdout" 2> "$out/stderr" ||
    echo "exit status $?" >> "$out/stderr"
  sed -n '/^explain /,$p' "$out/stdout" > "$out/explain.txt"
  # The trace's events in a canonical order, named by track (the file's own
  # order, numbering and float digits are how it was written, not what it says;
  # times to the picosecond).
  python3 - "$out/trace.json" > "$out/trace.events" <<'PY'
import json, sys
try:
    t = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(0)
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in t["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
rows = sorted(json.dumps([names.get((e["pid"], e["tid"])), e["name"], e["ph"], float(round(e["ts"], 6)), float(round(e.get("dur", 0), 6)), e.get("id", 0)])
              for e in t["traceEvents"] if e["ph"] != "M")
print("\n".join(rows))
PY
}

fail=0
n=0
views "$base_bin" base
views "$new_bin" new
for f in trace.events explain.txt; do
  if ! cmp -s "$work/base/views/$f" "$work/new/views/$f"; then
    echo "DIFFERS: the default scenario's $f"
    fail=1
  fi
done
[ -s "$work/base/views/explain.txt" ] && [ -s "$work/base/views/trace.events" ] || { echo "NO TRACE OR EXPLANATION from the base"; fail=1; }
for c in $configs; do
  n=$((n + 1))
  run_one "$base_bin" base "$c"
  run_one "$new_bin" new "$c"
  name=$(basename "$c" .yaml)
  for f in result.filtered cores.csv stderr; do
    a="$work/base/$name/$f"
    b="$work/new/$name/$f"
    [ -e "$a" ] || [ -e "$b" ] || continue
    if ! cmp -s "$a" "$b"; then
      echo "DIFFERS: $name ($f)"
      diff "$a" "$b" | head -20 || true
      fail=1
    fi
  done
  [ -s "$work/base/$name/result.filtered" ] || { echo "NO RESULT: $name (base run failed: $(tail -1 "$work/base/$name/stderr"))"; fail=1; }
done
if [ $fail -eq 0 ]; then
  echo "identical: $n configs, $duration each, and the default scenario's trace and explanation ($base_bin vs $new_bin)"
else
  echo "check-identical: results differ (see above)"
fi
exit $fail
