#!/bin/sh
# The installed form of cohsim works on its own (issue: "a tool people
# install"): `cmake --install` into a temporary prefix, the prefix moved
# elsewhere (the binary must find its data relative to itself), the source
# and build trees hidden (a private mount namespace with empty folders over
# them, where `unshare` is allowed; otherwise the binary is only checked to
# hold no path of them), then run, a shipped config by its short name, a
# teaching config, validate --quick, plot and report, all from an unrelated
# directory. Last, `cpack` makes a .deb holding the same layout, and its
# files, unpacked as dpkg puts them, run the guide's C and trace walkthroughs
# and the Python guide's frequency sweep as bands from an empty directory too.
# Usage: installed_layout.sh SOURCE_DIR BUILD_DIR [SANITIZED]
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
sanitized=${3:-OFF}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
mv "$tmp/prefix" "$tmp/moved"
p="$tmp/moved"
for f in bin/cohsim share/cohsim/configs/default.yaml share/cohsim/configs/platforms/asr_4xa53_4xa73.yaml \
         share/cohsim/configs/calibration/cases.yaml share/cohsim/configs/teaching/false_sharing.yaml \
         share/cohsim/workloads/locks/loop.s share/cohsim/scripts/plot.py share/cohsim/scripts/report.py share/cohsim/scripts/compare.py \
         share/cohsim/workloads/litmus/lse-cas.litmus share/cohsim/scripts/model-check.sh \
         share/cohsim/workloads/include/cohsim.h share/cohsim/workloads/c/ticket_lock.c share/cohsim/workloads/c/loop.h \
         share/cohsim/workloads/traces/two_core_lock.trace \
         share/doc/cohsim/README.md share/doc/cohsim/LICENSE share/doc/cohsim/docs/guide/first-run.md \
         share/doc/cohsim/docs/guide/python.md; do
  [ -e "$p/$f" ] || fail "the install has no $f"
done
# The Python package, where Debian's python3 finds it under the prefix, runs
# the binary installed beside it (no COHSIM, no PATH).
pydir=$(ls -d "$p"/lib/python3*/dist-packages 2>/dev/null | head -1)
[ -n "$pydir" ] && [ -f "$pydir/cohsim/__init__.py" ] || fail "the install has no lib/python3.X/dist-packages/cohsim"
found=$(cd "$tmp" && env -u COHSIM PATH=/usr/bin:/bin PYTHONPATH="$pydir" /usr/bin/python3 -c "import cohsim; print(cohsim.binary())")
[ "$found" = "$p/bin/cohsim" ] || fail "import cohsim found '$found', not $p/bin/cohsim"
# No path of the source or build tree is compiled into the binary (a
# sanitizer build keeps header paths for its reports: only messages, and the
# hidden-tree run below shows nothing is read from them).
case "$sanitized" in
  ON|on|1|TRUE|true) ;;
  *) if grep -a -q -F "$src/" "$p/bin/cohsim"; then fail "bin/cohsim holds the source path $src"; fi ;;
esac

# The steps, from an empty directory ($2) with the installed prefix ($1) only;
# $3 = walkthroughs: only the default run and the guide's C and trace ones.
cat > "$tmp/steps.sh" <<'STEPS'
set -eu
p=$1
mkdir "$2"
cd "$2"
unset COHSIM_DATA_DIR COHSIM_INCLUDE_PATH
c="$p/bin/cohsim"
$c run --duration 1ms -q --out default
test -s default/result.json
if [ "${3:-all}" = all ]; then
$c run platforms/asr_4xa53_4xa73.yaml --duration 1ms -q --out platform 2>/dev/null
$c run configs/teaching/false_sharing.yaml --duration 1ms -q --out teaching
$c run teaching/false_sharing.yaml --duration 1ms -q --out teaching2
$c validate --quick --out v > v.txt
$c plot default > plot.txt
$c report default > report.txt
$c litmus lse-cas.litmus --platform dynamiq_4xa55_4xa75 --batches 2 --iterations 20 --check > litmus.txt
grep -q 'Observation LSE-CAS Never 0 40' litmus.txt
test -s default/share.svg && test -s default/report.html && test -s teaching/result.json
grep -q 'passed, 0 failed' v.txt
fi
# The guide's "Real code" and "Trace replay" from an empty directory, with the
# installed header, example and trace only.
if command -v aarch64-linux-gnu-gcc > /dev/null; then
  aarch64-linux-gnu-gcc -O2 -ffreestanding -nostdlib -static -mgeneral-regs-only \
      -I "$p/share/cohsim/workloads/include" -o ticket_lock.elf "$p/share/cohsim/workloads/c/ticket_lock.c" -lgcc
  $c run --set workload.program=ticket_lock.elf --set workload.function=thread --duration 20ms --out c > c.txt
  grep -q 'little.2 .*STARVED' c.txt
fi
$c run --set "workload={trace: $p/share/cohsim/workloads/traces/two_core_lock.trace}" --duration 1ms -q --out trace
test -s trace/result.json
STEPS
# Runs the steps for the prefix $1 in the new directory $2 ($3: which).
steps() {
  if unshare -m true 2>/dev/null; then
    # The source and build trees out of reach: empty folders mounted over them.
    unshare -m sh -c "mount -t tmpfs none '$src' && { [ '$build' = '$src' ] || mount -t tmpfs none '$build' 2>/dev/null || true; } && ls '$src' | wc -l | grep -qx 0 && sh '$tmp/steps.sh' '$1' '$2' '$3'" \
      || fail "the installed cohsim ($1) failed with the source tree hidden"
    echo "$1: ran with the source tree hidden"
  else
    sh "$tmp/steps.sh" "$1" "$2" "$3" || fail "the installed cohsim ($1) failed"
    echo "$1: unshare not allowed here: ran with the source tree in place (the binary holds no path of it)"
  fi
}
steps "$p" "$tmp/elsewhere" all
grep -q 'passed, 0 failed' "$tmp/elsewhere/v.txt" || fail "validate --quick: $(cat "$tmp/elsewhere/v.txt")"

# The .deb: the same files under /usr.
if command -v dpkg-deb > /dev/null && command -v dpkg-shlibdeps > /dev/null; then
  (cd "$build" && cpack -G DEB -B "$tmp/deb" > "$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack -G DEB failed"; }
  deb=$(ls "$tmp"/deb/cohsim_*.deb)
  dpkg-deb -c "$deb" > "$tmp/deb.txt"
  for f in ./usr/bin/cohsim ./usr/share/cohsim/configs/default.yaml ./usr/share/cohsim/scripts/plot.py \
           ./usr/share/cohsim/workloads/include/cohsim.h ./usr/share/cohsim/workloads/c/ticket_lock.c \
           ./usr/share/cohsim/workloads/traces/two_core_lock.trace \
           ./usr/share/doc/cohsim/LICENSE; do
    grep -q " $f\$" "$tmp/deb.txt" || fail "the .deb has no $f"
  done
  grep -q " ./usr/lib/python3[.0-9]*/dist-packages/cohsim/__init__.py\$" "$tmp/deb.txt" ||
    fail "the .deb has no Python package under /usr/lib/python3.X/dist-packages"
  dpkg-deb -f "$deb" Depends | grep -q python3-pandas || fail "the .deb does not depend on python3-pandas (import cohsim)"
  dpkg-deb -f "$deb" Depends | grep -q libsystemc || fail "the .deb does not depend on SystemC's library: $(dpkg-deb -f "$deb" Depends)"
  # Its files, unpacked as dpkg would put them under /, pass the same steps.
  dpkg-deb -x "$deb" "$tmp/debroot"
  steps "$tmp/debroot/usr" "$tmp/deb-elsewhere" walkthroughs
  test -s "$tmp/deb-elsewhere/trace/result.json" || fail "the .deb's trace walkthrough wrote no result"
  # The Python guide's path from the package to a frequency sweep as bands
  # (docs/guide/python.md, as the .deb installs it): its block run as
  # written, by Debian's python3 finding the package and the binary beside
  # it, from an empty directory. (Release tree only: Python, not C++.)
  case "$sanitized" in
    ON|on|1|TRUE|true) ;;
    *)
      guide="$tmp/debroot/usr/share/doc/cohsim/docs/guide/python.md"
      [ -f "$guide" ] || fail "the .deb has no docs/guide/python.md"
      mkdir "$tmp/deb-python"
      awk '/^## From the package to a frequency sweep as bands/{f=1} f&&/^```python/{g=1;next} g&&/^```/{exit} g{print}' \
        "$guide" > "$tmp/deb-python/bands.py"
      grep -q "cohsim.sweep(" "$tmp/deb-python/bands.py" || fail "no sweep in the guide's Python block"
      debpy=$(ls -d "$tmp"/debroot/usr/lib/python3*/dist-packages)
      (cd "$tmp/deb-python" && env -i PATH=/usr/bin:/bin HOME="$tmp" PYTHONPATH="$debpy" /usr/bin/python3 bands.py) \
        > "$tmp/deb-python/out.txt" 2>&1 || { cat "$tmp/deb-python/out.txt"; fail "the Python guide's sweep as bands failed"; }
      head -c 4 "$tmp/deb-python/little_freq_share.png" | grep -q PNG || fail "the guide's plot is no PNG"
      grep -q "p_STARVED" "$tmp/deb-python/out.txt" || fail "the guide's table has no p_STARVED: $(cat "$tmp/deb-python/out.txt")"
      [ "$(grep -c "GHz\|MHz" "$tmp/deb-python/out.txt")" -eq 6 ] || fail "expected 6 points: $(cat "$tmp/deb-python/out.txt")"
      ;;
  esac
  echo "built $(basename "$deb")"
fi
echo "installed layout OK"
