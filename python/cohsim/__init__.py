"""cohsim from Python.

Runs configs, sweeps and predictions through the `cohsim` command (the same
binary, so results are byte for byte what the command line gives) and reads
any output directory as objects, with pandas DataFrames for the tables:

    import cohsim
    r = cohsim.run(set={"clusters.little.freq": "1248MHz"}, duration="20ms")
    r.cores                      # one row per core: share, verdict, waits, ...
    s = cohsim.sweep(vary={"clusters.little.freq": "832MHz:1.8GHz:96MHz"}, members=8)
    s.results                    # per point and core: medians and 5-95% bands
    p = cohsim.predict(members=32)
    p.cores, p.members, p.sensitivity
    cohsim.load("runs/a")        # any existing output directory
    cohsim.compare(r, "runs/a")  # side by side, a DataFrame with what differs

Why a package over the command line rather than a binding: a run is a
SystemC elaboration, which happens once per process, and every command
already runs its runs as child processes; a binding would add a second build
(and a Python ABI) for no result the command cannot give.

The binary: $COHSIM if set, else the `cohsim` installed beside this package
(PREFIX/bin/cohsim), else `cohsim` on PATH.
"""

import json
import os
import shutil
import subprocess
import tempfile

__all__ = ["run", "sweep", "predict", "compare", "load", "binary", "CohsimError", "Run", "Sweep", "Prediction", "C2c", "Latmem"]


class CohsimError(RuntimeError):
    """A cohsim command failed: its exit status and what it printed on stderr."""

    def __init__(self, args, status, stderr):
        self.args_ = args
        self.status = status
        self.stderr = stderr
        last = stderr.strip().splitlines()[-1] if stderr.strip() else "(nothing on stderr)"
        super().__init__(f"cohsim {' '.join(args)}: exit status {status}: {last}")


def binary():
    """The path of the cohsim binary this package runs."""
    env = os.environ.get("COHSIM")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise CohsimError(["(binary)"], 2, f"COHSIM={env} is not an executable file (expected the cohsim binary)")
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    # PREFIX/lib/python3.X/dist-packages/cohsim -> PREFIX/bin/cohsim
    beside = os.path.normpath(os.path.join(here, "..", "..", "..", "..", "bin", "cohsim"))
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("cohsim")
    if found:
        return found
    raise CohsimError(["(binary)"], 2, "no cohsim binary: set COHSIM to its path, or install cohsim (its bin/ on PATH)")


def _value_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v)  # YAML's flow style reads JSON
    return str(v)


def _sets(overrides):
    args = []
    for path, value in (overrides or {}).items():
        args += ["--set", f"{path}={_value_text(value)}"]
    return args


def _out_dir(out, kind):
    if out is not None:
        return os.path.abspath(out)
    return tempfile.mkdtemp(prefix=f"cohsim-{kind}-")


def _call(args):
    p = subprocess.run([binary()] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise CohsimError(args, p.returncode, p.stderr)
    return p.stdout


def _config_args(config):
    return [] if config is None else [os.fspath(config)]


def run(config=None, *, set=None, duration=None, seed=None, out=None):
    """Runs CONFIG (None: the built-in default scenario) once; returns a Run.

    set: {path: value} overrides, as `--set PATH=VALUE` (values may be
    strings, numbers, booleans, or lists and dicts for YAML flow values);
    duration: "20ms"; seed: an integer; out: the result directory (default:
    a new temporary one)."""
    d = _out_dir(out, "run")
    args = ["run"] + _config_args(config) + _sets(set) + ["-q", "--out", d]
    if duration is not None:
        args += ["--duration", str(duration)]
    if seed is not None:
        args += ["--seed", str(seed)]
    _call(args)
    return Run(d)


def sweep(config=None, *, vary, members=None, zip=False, set=None, jobs=None, out=None):
    """Runs a sweep; returns a Sweep.

    vary: {path: spec} as `--vary PATH=SPEC` (a list is joined with commas:
    {"clusters.little.freq": ["832MHz", "1248MHz"]}); members: an ensemble of
    that many runs at every point (medians, 5-95% bands and verdict
    probabilities in .results); zip: pair the values instead of a grid."""
    d = _out_dir(out, "sweep")
    args = ["sweep"] + _config_args(config) + _sets(set)
    for path, spec in vary.items():
        if isinstance(spec, (list, tuple)):
            spec = ",".join(_value_text(v) for v in spec)
        args += ["--vary", f"{path}={spec}"]
    if members is not None:
        args += ["--members", str(members)]
    if zip:
        args += ["--zip"]
    if jobs is not None:
        args += ["-j", str(jobs)]
    args += ["--out", d]
    _call(args)
    return Sweep(d)


def predict(config=None, *, members=32, set=None, duration=None, jobs=None, margin=None, out=None):
    """Runs an ensemble (`cohsim predict`); returns a Prediction."""
    d = _out_dir(out, "predict")
    args = ["predict"] + _config_args(config) + _sets(set) + ["-n", str(members), "--out", d]
    if duration is not None:
        args += ["--duration", str(duration)]
    if jobs is not None:
        args += ["-j", str(jobs)]
    if margin is not None:
        args += ["--margin", margin]
    _call(args)
    return Prediction(d)


def compare(a, b, *, threshold=10.0):
    """`cohsim compare A B`: two runs, sweeps or predictions (output
    directories, or the objects this package returns) side by side; a
    DataFrame with one row per compared core (and sweep point): each
    figure's A and B (median, p5, p95), the verdicts, and `differs`, what
    changed by more than the threshold (percent) or beyond the bands."""
    paths = [x.path if isinstance(x, _Output) else os.fspath(x) for x in (a, b)]
    with tempfile.TemporaryDirectory(prefix="cohsim-compare-") as d:
        f = os.path.join(d, "compare.json")
        _call(["compare", paths[0], paths[1], "--threshold", str(threshold), "--json", f])
        report = _read_json(f)
    rows = []
    for r in report["rows"]:
        row = {**r["point"], "core": r["core"]}
        for fig in ("rate", "share", "wait"):
            for side in ("a", "b"):
                for q in ("median", "p5", "p95"):
                    row[f"{fig}_{side}" + ("" if q == "median" else f"_{q}")] = r[fig][side][q]
        row["verdict_a"], row["verdict_b"] = r["verdict"]["a"], r["verdict"]["b"]
        row["differs"] = ", ".join(r["differs"])
        rows.append(row)
    return _frame(rows)


def load(path):
    """An existing output directory (or a run's result.json) as its object:
    a Prediction (prediction.json), a Sweep (sweep.json), a Run
    (result.json), a C2c (c2c.json) or a Latmem (latmem.json)."""
    p = os.path.abspath(os.fspath(path))
    if os.path.isfile(p) and p.endswith(".json"):
        return Run(os.path.dirname(p), os.path.basename(p))
    if not os.path.isdir(p):
        raise FileNotFoundError(f"{path}: no such directory (expected a cohsim output directory)")
    for name, cls in (("prediction.json", Prediction), ("c2c.json", C2c), ("latmem.json", Latmem),
                      ("sweep.json", Sweep), ("result.json", Run)):
        if os.path.exists(os.path.join(p, name)):
            return cls(p)
    raise FileNotFoundError(f"{path}: no result.json, sweep.json, prediction.json, c2c.json or latmem.json there "
                            "(expected the --out directory of a cohsim command)")


def _read_json(path):
    with open(path) as f:
        return json.load(f)


def _frame(rows, columns=None):
    import pandas as pd
    return pd.DataFrame(rows, columns=columns)


def _csv(path):
    import pandas as pd
    return pd.read_csv(path) if os.path.exists(path) and os.path.getsize(path) > 0 else pd.DataFrame()


class _Output:
    """An output directory and its JSON file (FILE, written by COMMAND), read
    into the attribute NAME."""

    FILE = COMMAND = NAME = ""

    def __init__(self, path, file=None):
        self.path = path
        f = os.path.join(path, file or self.FILE)
        if not os.path.exists(f):
            raise FileNotFoundError(f"{path}: no {file or self.FILE} there (expected the --out directory of {self.COMMAND})")
        setattr(self, self.NAME, _read_json(f))


class Run(_Output):
    """One run: result.json as a dict, and its tables as DataFrames."""

    FILE, COMMAND, NAME = "result.json", "cohsim run", "result"

    def __repr__(self):
        return f"<cohsim.Run {self.path}: {self.result.get('description', '')}, {self.simulated_ns / 1e6:g} ms>"

    @property
    def config(self):
        return self.result["config"]

    @property
    def seed(self):
        return self.result["seed"]

    @property
    def simulated_ns(self):
        return self.result["simulated_ns"]

    @property
    def cores(self):
        """One row per core: its counters, its L1's (l1_*) and, for a core
        that takes the lock, acquisitions, share, verdict, rate and waits."""
        rows = []
        for c in self.result["cores"]:
            row = {k: v for k, v in c.items() if not isinstance(v, (dict, list)) and v is not None}
            for k, v in (c.get("l1") or {}).items():
                row["l1_" + k] = v
            lock = c.get("lock")
            if lock:
                for k in ("acquisitions", "share", "verdict", "longest_wait_ns", "longest_wait_turns", "reason"):
                    if k in lock:
                        row[k] = lock[k]
                row["acq_per_s"] = lock["acquisitions"] / (self.simulated_ns * 1e-9) if self.simulated_ns else float("nan")
                for dist in ("wait_ns", "hold_ns"):
                    for k in ("count", "mean", "p50", "p99", "max"):
                        if dist in lock and k in lock[dist]:
                            row[f"{dist}_{k}"] = lock[dist][k]
            rows.append(row)
        return _frame(rows).set_index("id")

    @property
    def lines(self):
        """The busiest lines: one row per line with its coherence traffic."""
        return _frame(self.result.get("lines") or [])

    @property
    def regions(self):
        """The region profile: one row per core and region."""
        rows = []
        for c in self.result["cores"]:
            for name, s in (c.get("regions") or {}).items():
                rows.append({"core": c["id"], "region": name, **{k: v for k, v in s.items() if not isinstance(v, list)}})
        return _frame(rows)


class Sweep(_Output):
    """A sweep directory: results.csv (per point and core; with members, the
    medians and bands), members.csv (with members, every run) and the manifest."""

    FILE, COMMAND, NAME = "sweep.json", "cohsim sweep", "manifest"

    def __repr__(self):
        s = self.manifest["summary"]
        return f"<cohsim.Sweep {self.path}: {s['done']} of {s['points']} runs done>"

    @property
    def axes(self):
        return [a["path"] for a in self.manifest["axes"]]

    @property
    def results(self):
        return _csv(os.path.join(self.path, "results.csv"))

    @property
    def members(self):
        """Every run of a sweep with members (None without)."""
        f = os.path.join(self.path, "members.csv")
        return _csv(f) if os.path.exists(f) else None

    @property
    def points(self):
        """The manifest's runs: their values and state."""
        return _frame([{"point": p["point"], "state": p["state"], **p.get("values", {})} for p in self.manifest["points"]])

    def run(self, k):
        """Run k's own result."""
        return Run(os.path.join(self.path, "points", f"{k:04d}"))


class Prediction(_Output):
    """An ensemble directory: the report, each core's bands, the members and
    the sensitivity."""

    FILE, COMMAND, NAME = "prediction.json", "cohsim predict", "report"

    def __repr__(self):
        m = self.report["members"]
        return f"<cohsim.Prediction {self.path}: {m['done']} of {m['requested']} members>"

    @property
    def cores(self):
        rows = []
        done = self.report["members"]["done"]
        for c in self.report["cores"]:
            row = {"id": c["id"]}
            for fig in ("acquisitions_per_s", "share", "longest_wait_ns"):
                for q in ("p5", "p50", "p95"):
                    row[f"{fig}_{q}"] = c[fig][q]
            for v, n in c["verdicts"].items():
                row[f"p_{v.replace(' ', '_')}"] = n / done if done else float("nan")
            rows.append(row)
        return _frame(rows).set_index("id")

    @property
    def members(self):
        return _csv(os.path.join(self.path, "members.csv"))

    @property
    def sensitivity(self):
        return _frame(self.report.get("sensitivity") or [])

    @property
    def caveats(self):
        return list(self.report.get("caveats") or [])


class C2c(_Output):
    """A core-to-core latency directory: the matrix (one-way ns) and the pairs."""

    FILE, COMMAND, NAME = "c2c.json", "cohsim c2c", "report"

    @property
    def matrix(self):
        ids = self.report["cores"]
        return _frame(self.report["matrix"], columns=ids).set_axis(ids, axis=0)

    @property
    def pairs(self):
        return _frame(self.report["pairs"])


class Latmem(_Output):
    """A load-to-use latency directory: ns per load by working-set size."""

    FILE, COMMAND, NAME = "latmem.json", "cohsim latmem", "report"

    @property
    def points(self):
        return _frame(self.report["points"])
