#!/usr/bin/python3
"""One self-contained HTML page of a cohsim run or sweep, to attach to a bug
report or a mailing-list post. Usually run through `cohsim report DIR`.

  report.py DIR [--out FILE]
      DIR is the --out directory of `cohsim run` (result.json), of
      `cohsim sweep` (sweep.json, results.csv), of `cohsim predict`
      (prediction.json: bands, verdict probabilities, sensitivity, margin)
      or of `cohsim c2c` (c2c.json: the latency matrix). The page holds everything
      inline (the plots as SVG, the CSS; no script, no link outside the page):
      the verdicts with their reasons, the per-core table, the busiest lines,
      the region profile, the plots, the effective config and the provenance
      (version, commit, build, command line, host). Written atomically to
      --out (default DIR/report.html).
"""
import argparse
import csv
import html
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot  # noqa: E402  (the same plots as `cohsim plot`)

CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 72em; color: #222; background: #fff; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; } td.t { text-align: left; }
.v-STARVED { color: #c0392b; font-weight: bold; } .v-DISADVANTAGED { color: #b07d00; font-weight: bold; }
.v-DOMINANT { color: #2c5d9a; font-weight: bold; } .v-fair { color: #4c9a2a; }
pre { background: #f7f7f7; padding: 0.6em; font-size: 0.8em; overflow-x: auto; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
.note { color: #666; font-size: 0.85em; }
"""


def fail(msg):
    print("cohsim report: " + msg, file=sys.stderr)
    sys.exit(2)


def esc(v):
    return html.escape("" if v is None else str(v))


def table(header, rows, text_cols=()):
    out = ["<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>"]
    for r in rows:
        cells = []
        for i, v in enumerate(r):
            cls = ' class="t"' if i in text_cols else ""
            if isinstance(v, tuple):  # (text, css class)
                cells.append(f'<td class="t {v[1]}">{esc(v[0])}</td>')
            else:
                cells.append(f"<td{cls}>{esc(v)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "\n".join(out) + "</table>"


def num(v, digits=4):
    if v is None or v == "":
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v)


def figures(svgs):
    parts = []
    for name, svg in svgs:
        start = svg.find("<svg")  # drop the XML declaration and doctype: inline SVG in HTML
        parts.append(f'<figure id="plot-{esc(name)}">{svg[start:]}<figcaption class="note">{esc(name)}</figcaption></figure>')
    return "\n".join(parts)


def provenance(p, extra=()):
    rows = [(k, p.get(k)) for k in ("cohsim_version", "cohsim_commit", "build_type", "command_line", "host")]
    return table(["", ""], list(extra) + rows, text_cols=(0, 1))


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        fail(f"{path}: no such file (expected the --out directory of `cohsim run`, sweep, predict or c2c)")
    except json.JSONDecodeError as e:
        fail(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg})")


def run_report(run_dir):
    r = load_json(os.path.join(run_dir, "result.json"))
    title = r.get("description") or r.get("config_source", "cohsim run")
    body = [f"<h1>{esc(title)}</h1>",
            f'<p>{num(r.get("simulated_ns", 0) / 1e6)} ms simulated, seed {esc(r.get("seed"))}'
            + ("" if r.get("completed", True) else " <b>(interrupted before the end)</b>") + "</p>"]
    contenders = plot.contenders(r)
    if contenders:
        jain = r.get("fairness", {}).get("jain")
        body.append("<h2>Verdicts</h2>")
        if jain is not None:
            body.append(f"<p>Fairness (Jain's index, 1 = even): {jain:.4f}</p>")
        body.append("<ul>" + "".join(
            f'<li><span class="v-{esc(c["lock"].get("verdict"))}">{esc(c["lock"].get("verdict"))}</span> '
            f'{esc(c["lock"].get("reason", ""))}</li>' for c in contenders) + "</ul>")
    rows = []
    for c in r.get("cores", []):
        lock = c.get("lock", {})
        w = lock.get("wait_ns", {})
        v = lock.get("verdict", "")
        rows.append((c["id"], c.get("type"), num(c.get("freq_mhz")), lock.get("acquisitions", "-"),
                     num(lock.get("share")), (v, f"v-{v}"), num(w.get("p50")), num(w.get("p99")),
                     num(lock.get("longest_wait_ns")), c.get("l1", {}).get("misses"), c.get("wfe_sleeps"),
                     num(c.get("asleep_fraction"), 3)))
    body.append("<h2>Cores</h2>" + table(
        ["core", "type", "MHz", "acquisitions", "share", "verdict", "p50 wait ns", "p99 wait ns", "longest wait ns",
         "L1 misses", "WFE sleeps", "asleep"], rows, text_cols=(0, 1)))
    lines = sorted(r.get("lines", []), key=lambda l: -l.get("requests", 0))[:12]
    if lines:
        body.append("<h2>Busiest lines</h2><p class=note>coherence requests served by the home</p>" + table(
            ["line", "symbol", "requests", "GetS", "GetM", "Upg", "snoops", "cross-cluster", "excl fails"],
            [(l["address"], l.get("symbol"), l.get("requests"), l.get("gets"), l.get("getm"), l.get("upgrades"),
              l.get("snoops"), l.get("cross_cluster_transfers"), l.get("exclusive_fails")) for l in lines],
            text_cols=(0, 1)))
    prof = []
    for c in r.get("cores", []):
        for name, d in (c.get("regions") or {}).items():
            prof.append((c["id"], name, d.get("hit"), num(d.get("time_ns")), num(d.get("avg_ns")), num(d.get("s2_ns2"))))
        for o in c.get("regions_open_at_end", []):
            prof.append((c["id"], o["region"] + " (open at the end)", "-", num(o["open_ns"]), "-", "-"))
    if prof:
        body.append("<h2>Function profile</h2>" + table(["core", "region", "Hit", "Time ns", "Avg ns", "s^2 ns^2"], prof,
                                                         text_cols=(0, 1)))
    plot.SINK = []
    plot.plot_run(r, run_dir)
    body.append("<h2>Plots</h2>" + figures(plot.SINK))
    config = os.path.join(run_dir, "config.yaml")
    if os.path.exists(config):
        with open(config) as f:
            body.append("<h2>Effective config</h2><p class=note>config.yaml: running it again gives the same "
                        "simulation</p><pre>" + esc(f.read()) + "</pre>")
    body.append("<h2>Provenance</h2>" + provenance(r, [("config", r.get("config_source"))]))
    return title, body


def sweep_report(sweep_dir):
    with open(os.path.join(sweep_dir, "sweep.json")) as f:
        s = json.load(f)
    axes = [a["path"] for a in s.get("axes", [])]
    summary = s.get("summary", {})
    title = "cohsim sweep of " + ", ".join(axes)
    body = [f"<h1>{esc(title)}</h1>",
            f"<p>config {esc(s.get('config') or '(built-in default)')}; "
            + "".join(f"--set {esc(x)}; " for x in s.get("sets", []))
            + f"{summary.get('done', 0)} of {summary.get('points', 0)} points done, {summary.get('failed', 0)} failed, "
            f"{summary.get('not_run', 0)} not run</p>"]
    failed = [p for p in s.get("points", []) if p.get("state") == "failed"]
    if failed:
        body.append("<h2>Failed points</h2>" + table(["point", "values", "error"], [
            (p["point"], ", ".join(f"{k}={v}" for k, v in p.get("values", {}).items()), p.get("error", "").strip())
            for p in failed], text_cols=(1, 2)))
    csv_path = os.path.join(sweep_dir, "results.csv")
    if os.path.exists(csv_path) and summary.get("done"):
        with open(csv_path) as f:
            rows = list(csv.reader(f))
        shown = [tuple((x, f"v-{x}") if rows[0][i] == "verdict" else x for i, x in enumerate(row)) for row in rows[1:501]]
        body.append("<h2>Results</h2>" + (f"<p class=note>the first 500 of {len(rows) - 1} rows</p>"
                                          if len(rows) > 501 else "") + table(rows[0], shown))
        fig = drawn(plot.plot_sweep, sweep_dir=sweep_dir, x=axes[0], y=axes[1] if len(axes) > 1 else None,
                    metric="share", core=None)  # none without a contending core
        if fig:
            body.append("<h2>Plot</h2>" + fig)
    body.append("<h2>Provenance</h2>" + provenance(s.get("provenance", {})))
    return title, body


def wilson(k, n, z=1.959964):
    """The 95% Wilson score interval of k/n, in percent (as `cohsim predict` prints it)."""
    if n <= 0:
        return "-"
    p, z2n = k / n, z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    return f"{max(0.0, centre - half) * 100:.0f}-{min(1.0, centre + half) * 100:.0f}%"


def drawn(draw, **args):
    """The figures `draw` (a plot.py function) makes for a page, as inline SVG; none when it has nothing to draw."""
    plot.SINK = []
    try:
        draw(argparse.Namespace(out=None, **args))
    except SystemExit:
        pass
    return figures(plot.SINK) if plot.SINK else ""


def band(b, fmt=num):
    return f"{fmt(b['p50'])} ({fmt(b['p5'])} .. {fmt(b['p95'])})"


def prediction_report(d):
    r = load_json(os.path.join(d, "prediction.json"))
    m = r["members"]
    n = m["done"]
    title = f"cohsim prediction of {os.path.basename(r.get('config', ''))}"
    body = [f"<h1>{esc(title)}</h1>",
            f"<p>{n} of {m['requested']} members of {esc(r.get('config'))}, {num(m.get('member_duration_ns', 0) / 1e6)} ms "
            f"each, {len(r.get('uncertain', []))} uncertain parameters drawn</p>"]
    rows = []
    for c in r["cores"]:
        verdicts = ", ".join(f"{k} {v}/{n} (95%: {wilson(v, n)})" for k, v in c["verdicts"].items())
        rows.append((c["id"], band(c["acquisitions_per_s"]), band(c["share"]), band(c["longest_wait_ns"]), verdicts))
    body.append("<h2>Bands and verdicts</h2><p class=note>median (5-95% band) over the members; each verdict's count "
                "with the 95% interval of its probability</p>" +
                table(["core", "acquisitions/s", "share", "longest wait ns", "verdicts"], rows, text_cols=(0, 4)))
    flat = all(c[k]["p5"] == c[k]["p95"] for c in r["cores"] for k in ("acquisitions_per_s", "share", "longest_wait_ns"))
    if flat and n > 1:
        body.append(f"<p><b>The {n} members gave identical results</b>: nothing they draw changes this run, so the bands "
                    "have no width and the counts measure no uncertainty.</p>")
    focus = r.get("focus_core")
    sens = r.get("sensitivity", [])
    focus_flat = any(c["id"] == focus and c["acquisitions_per_s"]["p5"] == c["acquisitions_per_s"]["p95"]
                     for c in r["cores"])
    if sens and focus_flat:
        body.append(f"<h2>Sensitivity</h2><p>{esc(focus)}'s rate is the same in every member: nothing to correlate.</p>")
    elif sens:
        body.append(f"<h2>Sensitivity</h2><p class=note>Spearman's rank correlation of {esc(focus)}'s rate with each "
                    "parameter over the members; below its chance level, within what chance alone gives</p>" +
                    table(["parameter", "range", "rho", "chance level"],
                          [(e["path"], e["range"], f"{e['spearman']:+.2f}",
                            f"{e.get('chance_level', r.get('chance_level', 1.0)):.2f}") for e in sens], text_cols=(0, 1)))
    if "margin" in r:
        mg = r["margin"]
        body.append("<h2>Margin</h2><p>" + esc(f"along {mg.get('path')}: at {mg.get('nominal')} {mg.get('focus_core')} is "
                                             f"{mg.get('nominal_verdict')}") + "</p><pre>" + esc(json.dumps(mg, indent=1)) + "</pre>")
    fig = drawn(plot.plot_predict, predict_dir=d)
    if fig:
        body.append("<h2>Plot</h2>" + fig)
    body.append("<h2>Provenance</h2>" + provenance(r.get("provenance", {}), [("config", r.get("config"))]))
    return title, body


def c2c_report(d):
    r = load_json(os.path.join(d, "c2c.json"))
    title = f"{r.get('platform')}: core-to-core latency"
    body = [f"<h1>{esc(title)}</h1>",
            f"<p>{esc(r.get('instruction'))} ping-pong, {esc(r.get('duration'))} per pair, {len(r.get('cores', []))} cores; "
            "one-way latency is the run's time over both threads' hand-offs</p>"]
    body.append("<h2>By kind of pair</h2>" + table(
        ["clusters", "kind", "instruction", "pairs", "min ns", "mean ns", "max ns"],
        [(g.get("clusters"), g.get("kind"), g.get("instruction"), g.get("pairs"), num(g.get("min_ns")),
          num(g.get("mean_ns")), num(g.get("max_ns"))) for g in r.get("groups", [])], text_cols=(0, 1, 2)))
    fig = drawn(plot.plot_c2c, c2c_dir=d)
    if fig:
        body.append("<h2>Matrix</h2>" + fig)
    pairs = r.get("pairs", [])
    body.append("<h2>Pairs</h2>" + ("<p class=note>the first 500</p>" if len(pairs) > 500 else "") + table(
        ["a", "b", "kind", "instruction", "hand-offs", "one-way ns"],
        [(p.get("a"), p.get("b"), p.get("kind"), p.get("instruction"), p.get("handoffs"), num(p.get("one_way_ns")))
         for p in pairs[:500]], text_cols=(0, 1, 2, 3)))
    body.append("<h2>Provenance</h2>" + provenance(r.get("provenance", {}), [("config", r.get("config"))]))
    return title, body


def main():
    p = argparse.ArgumentParser(prog="cohsim report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("--out", help="the HTML file (default: DIR/report.html)")
    a = p.parse_args()
    # A prediction's and a c2c matrix's folders hold their runs as a sweep
    # too: their own summary comes first.
    if os.path.exists(os.path.join(a.dir, "prediction.json")):
        title, body = prediction_report(a.dir)
    elif os.path.exists(os.path.join(a.dir, "c2c.json")):
        title, body = c2c_report(a.dir)
    elif os.path.exists(os.path.join(a.dir, "sweep.json")):
        title, body = sweep_report(a.dir)
    else:
        title, body = run_report(a.dir)
    page = ("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n" + "\n".join(body) +
            '\n<p class=note>written by cohsim report</p></body></html>\n')
    out = a.out or os.path.join(a.dir, "report.html")
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(page)
    os.replace(tmp, out)  # atomic: never a half-written page
    print(out)


if __name__ == "__main__":
    main()
