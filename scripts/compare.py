#!/usr/bin/python3
"""Two cohsim outputs side by side: runs, sweeps or predictions. Usually run
through `cohsim compare A B` (see its --help).

  compare.py A B [--threshold PCT] [--html FILE] [--json FILE] [--fail-on-difference]

Each of A and B is the --out directory of `cohsim run` (result.json), of
`cohsim sweep` (sweep.json, results.csv; with or without --members) or of
`cohsim predict` (prediction.json), or a run's result.json itself. Per core
that takes a lock (and, for sweeps, per point, matched by the swept values):
the rate (acquisitions per simulated second), the share, the longest wait and
the verdict, each as A, B and the change. A figure is a number (a run, a
plain sweep) or a median with its 5-95% band (a prediction, a sweep with
members). A difference is flagged (`!`) where it matters: a verdict that
changed (the most likely one, for an ensemble); two numbers more than the
threshold apart (default 10%); two bands (or a number and a band) that do not
overlap, with medians more than the threshold apart. Rows only one side has
are listed. The HTML page (--html) is self-contained and written atomically.
"""
import argparse
import csv
import html
import json
import math
import os
import sys

NAMES = {"result.json": "run", "sweep.json": "sweep", "prediction.json": "prediction"}
FIGURES = (("rate", "acquisitions/s"), ("share", "share"), ("wait", "longest wait"))


def fail(msg):
    print("cohsim compare: " + msg, file=sys.stderr)
    sys.exit(2)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: cannot read it as JSON ({e})")


def read_csv(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: {e.strerror}; a sweep directory holds results.csv once a point has finished")


def number(text, where):
    try:
        return float(text)
    except (TypeError, ValueError):
        fail(f"{where}: '{text}' is not a number")


def point(v):
    return (v, v, v)


class Output:
    """One side: its kind, the swept paths (none for a run or prediction),
    and per (point, core) the figures: (median, p5, p95) each, the verdict
    and, for an ensemble, each verdict's probability."""

    def __init__(self, arg):
        self.arg = arg
        path = arg
        if os.path.isdir(arg):
            found = [n for n in ("prediction.json", "sweep.json", "result.json") if os.path.exists(os.path.join(arg, n))]
            if not found:
                fail(f"{arg}: no result.json, sweep.json or prediction.json there (expected the --out directory "
                     "of cohsim run, sweep or predict)")
            path = os.path.join(arg, found[0])
        elif not os.path.exists(arg):
            fail(f"{arg}: no such file or directory")
        name = os.path.basename(path)
        if name not in NAMES:
            fail(f"{arg}: expected a directory of cohsim run, sweep or predict, or a result.json, "
                 f"not '{name}'")
        self.kind = NAMES[name]
        self.axes = []
        self.rows = {}  # (values tuple, core id) -> figures
        self.description = ""
        getattr(self, "_" + self.kind)(path)

    def _run(self, path):
        r = read_json(path)
        self.description = r.get("description", "")
        seconds = r.get("simulated_ns", 0) * 1e-9
        for c in r.get("cores", []):
            lock = c.get("lock")
            if not lock or "verdict" not in lock:
                continue
            rate = lock["acquisitions"] / seconds if seconds else float("nan")
            self.rows[((), c["id"])] = {"rate": point(rate), "share": point(lock["share"]),
                                         "wait": point(lock["longest_wait_ns"]), "verdict": lock["verdict"],
                                         "p": None}

    def _prediction(self, path):
        r = read_json(path)
        done = r["members"]["done"]
        self.description = f"{done} members"
        for c in r["cores"]:
            figs = {}
            for key, name in (("rate", "acquisitions_per_s"), ("share", "share"), ("wait", "longest_wait_ns")):
                b = c[name]
                figs[key] = (b["p50"], b["p5"], b["p95"])
            p = {v: n / done for v, n in c["verdicts"].items()} if done else {}
            figs["p"] = p
            figs["verdict"] = max(sorted(p), key=lambda v: p[v]) if p else ""
            self.rows[((), c["id"])] = figs

    def _sweep(self, path):
        m = read_json(path)
        self.axes = [a["path"] for a in m["axes"]]
        members = len(m.get("members") or [])
        s = m.get("summary", {})
        self.description = f"{s.get('done', '?')} of {s.get('points', '?')} runs done" + (
            f", {len(m['members'][0]['values'])} members each" if members else "")
        results = os.path.join(os.path.dirname(path), "results.csv")
        for i, row in enumerate(read_csv(results)):
            where = f"{results} row {i + 2}"
            if not row.get("verdict"):
                continue
            missing = [a for a in self.axes if a not in row]
            if missing:
                fail(f"{results}: no column for the swept path {missing[0]}")
            key = (tuple(row[a] for a in self.axes), row["core"])
            if "members" in row:
                figs = {}
                for k, col in (("rate", "acq_per_s"), ("share", "share"), ("wait", "wait_ns_max")):
                    figs[k] = tuple(number(row[c], where) for c in (col, col + "_p5", col + "_p95"))
                # p_VERDICT columns ("too few samples" written p_too_few_samples)
                figs["p"] = {c[2:].replace("_", " "): number(v, where)
                             for c, v in row.items() if c.startswith("p_") and v != ""}
                figs["verdict"] = row["verdict"]
            else:
                ns = number(row["simulated_ns"], where)
                rate = number(row["acquisitions"], where) / (ns * 1e-9) if ns else float("nan")
                figs = {"rate": point(rate), "share": point(number(row["share"], where)),
                        "wait": point(number(row["wait_ns_max"], where)), "verdict": row["verdict"], "p": None}
            self.rows[key] = figs


# ---- formatting -------------------------------------------------------------

def sig(v, digits=4):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if v == 0:
        return "0"
    return f"{v:.{digits}g}"


def fmt(key, v):
    if key == "share":
        return sig(100 * v, 3) + "%"
    if key == "wait":
        for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
            if v >= scale:
                return sig(v / scale, 3) + " " + unit
        return sig(v, 3) + " ns"
    return sig(v)


def cell(key, f):
    med, lo, hi = f
    text = fmt(key, med)
    if lo != hi:
        text += f" [{fmt(key, lo)}..{fmt(key, hi)}]"
    return text


def change(a, b):
    """B against A: +x% within a factor 2, else a factor."""
    if a == b:
        return "="
    if a == 0 or b == 0 or math.isnan(a) or math.isnan(b):
        return "from 0" if a == 0 else "to 0" if b == 0 else "-"
    r = b / a
    if 0.5 <= r <= 2:
        return "~0%" if abs(r - 1) < 0.0005 else f"{100 * (r - 1):+.1f}%"
    return f"x{sig(r, 3)}" if r > 1 else f"/{sig(1 / r, 3)}"


def differs(a, b, threshold):
    """A figure's difference matters: medians more than the threshold apart
    and, where either side is a band, the two intervals do not overlap."""
    (ma, la, ha), (mb, lb, hb) = a, b
    if any(math.isnan(x) for x in (ma, mb)):
        return False
    apart = abs(mb - ma) > threshold * max(abs(ma), abs(mb))
    if la == ha and lb == hb:
        return apart
    return apart and (lb > ha or hb < la)


def verdict_text(f):
    if f["p"]:
        p = f["p"].get(f["verdict"], 0)
        return f"{f['verdict']} ({100 * p:.0f}%)"
    return f["verdict"]


# ---- comparison ---------------------------------------------------------------

def compare(a, b, threshold):
    """The rows both sides have, each with its cells and what differs; and
    the rows only one side has."""
    rows = []
    for key in (k for k in a.rows if k in b.rows):
        fa, fb = a.rows[key], b.rows[key]
        cells, flags = [], []
        for k, name in FIGURES:
            d = differs(fa[k], fb[k], threshold)
            if d:
                flags.append(name)
            cells.append((cell(k, fa[k]), cell(k, fb[k]), change(fa[k][0], fb[k][0]), d))
        vd = fa["verdict"] != fb["verdict"]
        if vd:
            flags.append("verdict")
        cells.append((verdict_text(fa), verdict_text(fb), "changed" if vd else "same", vd))
        rows.append((key, cells, flags))
    only_a = [k for k in a.rows if k not in b.rows]
    only_b = [k for k in b.rows if k not in a.rows]
    return rows, only_a, only_b


def key_text(axes, key):
    values, core = key
    return [f"{p}={v}" for p, v in zip(axes, values)] + [core]


def text_report(a, b, threshold, rows, only_a, only_b):
    out = [f"A: {a.arg} ({a.kind}{', ' + a.description if a.description else ''})",
           f"B: {b.arg} ({b.kind}{', ' + b.description if b.description else ''})",
           f"(a figure: A -> B, the change; [p5..p95] an ensemble's band; ! a difference that matters: "
           f"a changed verdict, more than {100 * threshold:g}% apart, bands apart)", ""]
    header = ["point"] * bool(a.axes) + ["core"] + [n for _, n in FIGURES] + ["verdict", ""]
    table = [header]
    for key, cells, flags in rows:
        values, core = key
        row = [", ".join(f"{p}={v}" for p, v in zip(a.axes, values))] * bool(a.axes) + [core]
        for ca, cb, ch, _ in cells[:-1]:
            row.append(f"{ca} -> {cb} ({ch})")
        va, vb, _, vd = cells[-1]
        row.append(f"{va} -> {vb}" if vd else va + (f" / {vb}" if vb != va else ""))
        row.append("! " + ", ".join(flags) if flags else "")
        table.append(row)
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for r in table:
        out.append("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
    flagged = sum(1 for _, _, f in rows if f)
    out.append("")
    for side, keys in (("A", only_a), ("B", only_b)):
        if keys:
            out.append(f"only in {side}: " + "; ".join(" ".join(key_text(a.axes, k)) for k in keys))
    if not rows:
        out.append("no core is in both (compare matches cores by id and sweep points by their swept values)")
    else:
        out.append(f"{flagged} of {len(rows)} rows differ where it matters" if flagged else
                   f"no difference that matters in {len(rows)} rows (threshold {100 * threshold:g}%)")
    return "\n".join(out) + "\n"


CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 80em; color: #222; background: #fff; }
h1 { font-size: 1.3em; } table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; } th { background: #f0f0f0; }
td.t { text-align: left; } td.d { background: #ffe08a; font-weight: bold; } .note { color: #666; font-size: 0.85em; }
"""


def html_report(a, b, threshold, rows, only_a, only_b):
    esc = html.escape
    h = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>cohsim compare</title>",
         f"<style>{CSS}</style></head><body><h1>cohsim compare</h1>",
         f"<p>A: <code>{esc(a.arg)}</code> ({esc(a.kind)}{', ' + esc(a.description) if a.description else ''})<br>",
         f"B: <code>{esc(b.arg)}</code> ({esc(b.kind)}{', ' + esc(b.description) if b.description else ''})</p>",
         f"<p class='note'>Highlighted: a difference that matters (a changed verdict; more than "
         f"{100 * threshold:g}% apart; bands that do not overlap). [p5..p95]: an ensemble's band.</p>",
         "<table><tr>" + "".join(f"<th>{esc(p)}</th>" for p in a.axes) + "<th>core</th>"]
    for _, name in FIGURES + (("verdict", "verdict"),):
        h.append(f"<th>{esc(name)} A</th><th>B</th><th>change</th>")
    h.append("</tr>")
    for (values, core), cells, _ in rows:
        h.append("<tr>" + "".join(f"<td class='t'>{esc(v)}</td>" for v in values) + f"<td class='t'>{esc(core)}</td>")
        for ca, cb, ch, d in cells:
            cls = " class='d'" if d else ""
            h.append(f"<td>{esc(ca)}</td><td>{esc(cb)}</td><td{cls}>{esc(ch)}</td>")
        h.append("</tr>")
    h.append("</table>")
    for side, keys in (("A", only_a), ("B", only_b)):
        if keys:
            h.append(f"<p>Only in {side}: " + "; ".join(esc(" ".join(key_text(a.axes, k))) for k in keys) + "</p>")
    h.append("</body></html>\n")
    return "".join(h)


def json_report(a, b, threshold, rows, only_a, only_b):
    """Every compared row: its point, core, each figure's A and B as
    {median, p5, p95}, the verdicts (and probabilities), what differs."""
    def fig(f):
        return {"median": f[0], "p5": f[1], "p95": f[2]}

    out = []
    for key, _, flags in rows:
        values, core = key
        fa, fb = a.rows[key], b.rows[key]
        row = {"point": dict(zip(a.axes, values)), "core": core, "differs": flags}
        for k, _ in FIGURES:
            row[k] = {"a": fig(fa[k]), "b": fig(fb[k])}
        row["verdict"] = {"a": fa["verdict"], "b": fb["verdict"], "a_p": fa["p"], "b_p": fb["p"]}
        out.append(row)
    side = lambda keys: [{"point": dict(zip(a.axes, k[0])), "core": k[1]} for k in keys]  # noqa: E731
    return {"a": {"path": a.arg, "kind": a.kind}, "b": {"path": b.arg, "kind": b.kind}, "threshold": threshold,
            "rows": out, "only_a": side(only_a), "only_b": side(only_b)}


def write_atomic(path, text, option):
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)  # atomic: never a half-written file
    except OSError as e:
        fail(f"{option} {path}: {e.strerror}")


def main():
    ap = argparse.ArgumentParser(prog="cohsim compare", description=__doc__.split("\n\n")[0])
    ap.add_argument("outputs", nargs="*")
    ap.add_argument("--threshold", type=float, default=10.0)
    ap.add_argument("--html")
    ap.add_argument("--json")
    ap.add_argument("--fail-on-difference", action="store_true")
    args = ap.parse_args()
    if not 0 < args.threshold < 1000:
        fail(f"--threshold {args.threshold:g}: expected a percentage above 0 (e.g. 10)")
    if len(args.outputs) != 2:
        fail(f"compare needs two outputs, A and B (run, sweep or predict directories), got {len(args.outputs)} "
             "(see cohsim compare --help)")
    a, b = (Output(x) for x in args.outputs)
    if (a.kind == "sweep") != (b.kind == "sweep"):
        fail(f"A is a {a.kind} and B a {b.kind}: a sweep compares with a sweep; a run and a prediction "
             "(one point each) compare with each other")
    if a.axes != b.axes:
        fail(f"A sweeps {', '.join(a.axes)} and B {', '.join(b.axes)}: compare needs the same swept paths, "
             "in the same order")
    threshold = args.threshold / 100
    rows, only_a, only_b = compare(a, b, threshold)
    sys.stdout.write(text_report(a, b, threshold, rows, only_a, only_b))
    if args.html:
        write_atomic(args.html, html_report(a, b, threshold, rows, only_a, only_b), "--html")
        print(f"wrote {args.html}")
    if args.json:
        write_atomic(args.json, json.dumps(json_report(a, b, threshold, rows, only_a, only_b), indent=1) + "\n", "--json")
    different = any(f for _, _, f in rows) or only_a or only_b
    sys.exit(1 if args.fail_on_difference and different else 0)


if __name__ == "__main__":
    main()
