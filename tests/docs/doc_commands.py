#!/usr/bin/env python3
"""Every command the documentation shows runs, and quoted output still appears.

Each ```sh block of README.md and docs/**/*.md runs as a bash script (`set -e`),
each ```python block as a script of Debian's python3 with the package (python/),
in order, in one working directory per page holding a copy of configs/ and the
shipped workloads, scripts and examples, so that a block may use what an
earlier block of its page made. `cohsim` (and `./build/cohsim`) is this
script in wrapper mode: it runs the binary under test with the simulated
time, ensemble sizes and litmus iterations shortened (the command's meaning
and code paths kept; a shortened run prints other figures), so the whole
tour takes minutes.

A judging command (validate, calibrate, c2c, latmem, litmus, compare) that
exits 1, its verdict on shortened runs, counts as run; 2 (bad input) or a
crash fails. COHSIM_DATA_DIR is the page's directory, so the shipped configs
a command finds by name are the copies a page may change (calibrate writes).

A block preceded by `<!-- doctest: skip: REASON -->` is listed as skipped with
its reason (for a command that needs a real cluster's paths). A ```text block
preceded by `<!-- doctest: output of: COMMAND -->` is the quoted output of
COMMAND, run as written (not shortened): each of its non-blank lines must
appear in what the command prints.

Usage: doc_commands.py COHSIM [-v] [FILE.md...]   (-v: each block's time)   (default: README.md and docs/)
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A run's simulated time; an ensemble member's or sweep point's; a c2c pair's.
SHORT, SHORT_MEMBER, SHORT_PAIR = "1ms", "500us", "5us"
SUBCOMMANDS_WITH_DURATION = {"run", "predict", "calibrate", "c2c", "latmem"}
# Counts cut to at most: the smallest ensemble every command takes, a few litmus runs.
COUNT_CAPS = {"-n": 4, "--members": 4, "--draws": 4, "--iterations": 10, "--batches": 2}


def shorten(args):
    """The arguments of one cohsim command, with its costs cut."""
    if not args or args[0].startswith("-"):
        return args
    cmd, rest = args[0], list(args[1:])
    out = [cmd]
    dur = SHORT_PAIR if cmd == "c2c" else SHORT_MEMBER if cmd in ("sweep", "predict", "calibrate", "validate") else SHORT
    seen_duration = False
    i = 0
    while i < len(rest):
        a = rest[i]
        nxt = rest[i + 1] if i + 1 < len(rest) else None
        if nxt is not None and (a in ("--duration", "-d") or (a == "--set" and nxt.startswith("run.duration="))):
            out += [a, dur if a != "--set" else "run.duration=" + dur]
            seen_duration = True
            i += 2
        elif nxt is not None and a in COUNT_CAPS and nxt.isdigit():
            out += [a, str(min(int(nxt), COUNT_CAPS[a]))]
            i += 2
        else:
            out.append(a)
            i += 1
    if "--help" in out or "-h" in out:
        return out
    if not seen_duration:
        if cmd in SUBCOMMANDS_WITH_DURATION:
            out += ["--duration", dur]
        elif cmd == "sweep" and "--merge" not in out:
            out += ["--set", "run.duration=" + dur]
        elif cmd == "validate" and "--bands" in out:
            out += ["--duration", dur]
    if cmd == "litmus" and "--iterations" not in out:
        out += ["--batches", "2", "--iterations", "10"]
    return out


# Commands whose exit status 1 is a verdict (a check that fails, a contradiction),
# which a shortened run may well give: run, not broken.
JUDGING = {"validate", "calibrate", "c2c", "latmem", "litmus", "compare"}


def wrapper_main():
    real = os.environ["COHSIM_DOCTEST_BINARY"]
    args = sys.argv[1:]
    if os.environ.get("COHSIM_DOCTEST_AS_IS") == "1":
        os.execv(real, [real] + args)
    args = shorten(args)
    rc = subprocess.run([real] + args).returncode
    if rc == 1 and args and args[0] in JUDGING:
        print("(doc test: `cohsim %s` shortened judged 1: counted as run)" % args[0], file=sys.stderr)
        rc = 0
    sys.exit(rc)


def blocks(path):
    """(kind, text, marker, line) of each fenced block: kind is the fence's language, marker the
    `<!-- doctest: ... -->` right before it (or None), line where it starts."""
    lines = open(path).read().split("\n")
    out, i, marker = [], 0, None
    while i < len(lines):
        l = lines[i]
        m = re.match(r"^<!-- doctest: (.*) -->$", l.strip())
        if m:
            marker = m.group(1)
        elif l.startswith("```"):
            kind = l[3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((kind, "\n".join(lines[i + 1:j]), marker, i + 1))
            marker = None
            i = j
        elif l.strip() and not l.strip().startswith("<!--"):
            marker = None  # a marker belongs to the block right after it
        i += 1
    return out


def prepare(work, wrapper_dir):
    os.makedirs(work)
    shutil.copytree(os.path.join(TOP, "configs"), os.path.join(work, "configs"))
    for d in ("workloads", "scripts", "examples", "bench", "python"):
        os.symlink(os.path.join(TOP, d), os.path.join(work, d))
    os.makedirs(os.path.join(work, "build"))
    os.symlink(os.path.join(wrapper_dir, "cohsim"), os.path.join(work, "build", "cohsim"))


def main():
    if os.path.basename(sys.argv[0]) == "cohsim":
        return wrapper_main()
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    verbose = "-v" in sys.argv
    argv = [a for a in sys.argv if a != "-v"]
    binary = os.path.abspath(argv[1])
    files = argv[2:] or ([os.path.join(TOP, "README.md")] +
                             sorted(glob.glob(os.path.join(TOP, "docs", "**", "*.md"), recursive=True)))
    tmp = tempfile.mkdtemp(prefix="cohsim-doctest-")
    wrapper_dir = os.path.join(tmp, "bin")
    os.makedirs(wrapper_dir)
    os.symlink(os.path.abspath(__file__), os.path.join(wrapper_dir, "cohsim"))
    env = dict(os.environ, COHSIM_DOCTEST_BINARY=binary, PATH=wrapper_dir + os.pathsep + os.environ["PATH"])
    env.pop("COHSIM_DOCTEST_AS_IS", None)
    failures, ran, skipped, checked = [], 0, [], 0
    for f in files:
        rel = os.path.relpath(f, TOP)
        work = os.path.join(tmp, re.sub(r"[^A-Za-z0-9]+", "_", rel))
        prepared = False
        for kind, text, marker, line in blocks(f):
            where = "%s:%d" % (rel, line)
            if kind in ("sh", "python"):
                if marker and marker.startswith("skip:"):
                    skipped.append("%s (%s)" % (where, marker[5:].strip()))
                    continue
                if not prepared:
                    prepare(work, wrapper_dir)
                    prepared = True
                t0 = time.time()
                try:
                    shell = ["bash", "-e", "-o", "pipefail", "-c"] if kind == "sh" else ["/usr/bin/python3", "-c"]
                    r = subprocess.run(shell + [text], cwd=work,
                                       env=dict(env, COHSIM_DATA_DIR=work, COHSIM=os.path.join(wrapper_dir, "cohsim"),
                                                PYTHONPATH=os.path.join(TOP, "python"), MPLBACKEND="Agg"),
                                       capture_output=True, text=True, timeout=300)
                except subprocess.TimeoutExpired:
                    failures.append("%s: the block still runs after 300 s (shorten it, or mark it skip)\n%s" % (where, text))
                    continue
                ran += 1
                if verbose:
                    print("  %5.1f s  %s" % (time.time() - t0, where), flush=True)
                if r.returncode != 0:
                    failures.append("%s: the block exits %d\n%s\n--- stderr:\n%s" %
                                    (where, r.returncode, text, r.stderr[-3000:]))
            elif marker and marker.startswith("output of:"):
                command = marker[len("output of:"):].strip()
                if not prepared:
                    prepare(work, wrapper_dir)
                    prepared = True
                r = subprocess.run(["bash", "-e", "-c", command], cwd=work, capture_output=True, text=True,
                                   env=dict(env, COHSIM_DOCTEST_AS_IS="1", COHSIM_DATA_DIR=work), timeout=600)
                checked += 1
                if r.returncode != 0:
                    failures.append("%s: `%s` exits %d\n%s" % (where, command, r.returncode, r.stderr[-3000:]))
                    continue
                missing = [l for l in text.split("\n") if l.strip() and l not in r.stdout]
                if missing:
                    failures.append("%s: `%s` no longer prints:\n%s\n--- it printed:\n%s" %
                                    (where, command, "\n".join(missing), r.stdout))
    print("doc test: %d blocks run, %d quoted outputs checked, %d skipped" % (ran, checked, len(skipped)))
    for s in skipped:
        print("  skipped: " + s)
    for fl in failures:
        print("FAILED " + fl + "\n")
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
