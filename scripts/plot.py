#!/usr/bin/python3
"""Plots of cohsim results, as PNG and SVG, with matplotlib (Debian's
python3-matplotlib). Usually run through `cohsim plot RUN_DIR`.

  plot.py run RUN_DIR [--out DIR]
      RUN_DIR/result.json -> wait_histogram.{png,svg} (each contending core's
      wait-time histogram, log-bucketed as in the JSON) and share.{png,svg}
      (each core's share of the acquisitions against its fair share, coloured
      by its verdict), when cores took a lock; lines.{png,svg} (the busiest
      lines' coherence requests by kind) and regions.{png,svg} (the region
      profile) when the run has them. Past 12 cores the plots show clusters.
      Written into --out (default RUN_DIR).

  plot.py sweep SWEEP_DIR --x PATH [--y PATH] --metric NAME [--core ID] [--out DIR]
      SWEEP_DIR/results.csv -> sweep_<metric>.{png,svg}: with --y a heatmap of
      the metric (a results.csv column: share, acquisitions, wait_ns_max, ...)
      of one core over the x and y values, the cells where that core is
      STARVED outlined; without --y (into sweep_<metric>_lines.{png,svg}) a
      line per other swept combination. Any
      other swept path gives one panel (2-D) or line (1-D) per value. The
      core defaults to the contending core with the lowest mean share. A
      sweep with --members has each point's median and 5-95% band: the
      lines are medians with their band shaded, the heatmap shows medians.

  plot.py predict PREDICT_DIR [--out DIR]
      PREDICT_DIR/prediction.json and members.csv -> prediction.{png,svg}:
      left, each contending core's acquisitions per second in every member
      (dots) with its median and 5-95% band; right, the rank correlation of
      the least successful core's rate with each drawn parameter.

  plot.py latmem LATMEM_DIR [--out DIR]
      LATMEM_DIR/latmem.json (cohsim latmem) -> latmem.{png,svg}: ns per
      dependent load against the working set (log-log), the published
      figures checked (--check) as bars.

  plot.py scale SCALE_DIR [--out DIR]
      SCALE_DIR/scale.json (cohsim scale) -> scale.{png,svg}: the lock's
      throughput against the thread count (log-log), a line per placement
      with its 5-95% band when the points had members; beside it the model
      events per acquisition.

  plot.py c2c C2C_DIR [--out DIR]
      C2C_DIR/c2c.json (cohsim c2c) -> c2c.{png,svg}: the core-to-core
      latency matrix as a heatmap, one-way ns per hand-off in each cell.
"""
import argparse
import csv
import json
import os
import sys

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "cohsim"  # identical SVGs for identical results
import matplotlib.pyplot as plt  # noqa: E402

VERDICT_COLOURS = {"fair": "#4c9a2a", "DISADVANTAGED": "#e0a100", "STARVED": "#c0392b", "DOMINANT": "#2c5d9a",
                   "too few samples": "#bbbbbb"}


def fail(msg):
    print("cohsim plot: " + msg, file=sys.stderr)
    sys.exit(2)


def load(run_dir):
    path = os.path.join(run_dir, "result.json")
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        fail(f"{path}: no such file (expected the output directory of `cohsim run`)")
    except json.JSONDecodeError as e:
        fail(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg})")


# When a list, save() appends (name, SVG text) to it and writes no file:
# how scripts/report.py inlines the plots in its HTML page.
SINK = None


def save(fig, out_dir, name):
    if SINK is not None:
        import io
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
        plt.close(fig)
        SINK.append((name, buf.getvalue()))
        return [name]
    written = []
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{name}.{ext}")
        tmp = path + ".tmp"
        fig.savefig(tmp, format=ext, metadata={"Date": None} if ext == "svg" else None, dpi=120)
        os.replace(tmp, path)  # atomic: never a half-written plot
        written.append(path)
    plt.close(fig)
    return written


def contenders(result):
    return [c for c in result.get("cores", []) if "lock" in c and "share" in c["lock"]]


def clock(mhz):
    return f"{mhz / 1000:g} GHz" if mhz >= 1000 else f"{mhz:g} MHz"


def title(result):
    # The run's own clocks (a --set of a frequency shows here, whatever the description says),
    # and any thread's cpu_relax other than the default yield.
    t = result.get("description") or result.get("config_source", "")
    clocks = {}
    for c in contenders(result) or result.get("cores", []):
        clocks.setdefault(c.get("cluster", c["id"]), c.get("freq_mhz"))
    ran = ", ".join(f"{k} {clock(v)}" for k, v in clocks.items() if v)
    threads = result.get("config", {}).get("workload", {}).get("threads", []) or []
    relax = ", ".join(f"{th.get('core')} {th.get('cpu_relax')}" for th in threads
                      if isinstance(th, dict) and th.get("cpu_relax") not in (None, "yield"))
    extra = (ran + "; " if ran else "") + (relax + "; " if relax else "")
    return f"{t}\n{extra}{result.get('simulated_ns', 0) / 1e9:g} s simulated, seed {result.get('seed')}"


def core_label(c):
    return f"{c['id']} @ {clock(c['freq_mhz'])}" if c.get("freq_mhz") else c["id"]


# Past this many cores a plot shows clusters, not cores (a legend entry or a
# labelled bar per core would cover the data or make the image unbounded).
MANY = 12
MAX_WIDTH = 16  # inches: 1920 px at 120 dpi


def wait_series(result):
    """(label, histogram) per contending core, or per cluster when there are many."""
    cores = contenders(result)
    if len(cores) <= MANY:
        return [(core_label(c), c["lock"], c["lock"].get("wait_ns", {}).get("histogram", [])) for c in cores]
    groups = {}
    for c in cores:
        g = groups.setdefault(c.get("cluster", c["id"]), {"n": 0, "acq": 0, "hist": {}, "mhz": c.get("freq_mhz")})
        g["n"] += 1
        g["acq"] += c["lock"]["acquisitions"]
        for lo, hi, n in c["lock"].get("wait_ns", {}).get("histogram", []):
            g["hist"][(lo, hi)] = g["hist"].get((lo, hi), 0) + n
    return [(f"{k}: {g['n']} cores @ {clock(g['mhz'])}" if g["mhz"] else f"{k}: {g['n']} cores", {"acquisitions": g["acq"]},
             sorted([lo, hi, n] for (lo, hi), n in g["hist"].items())) for k, g in groups.items()]


def plot_waits(result, out_dir):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    drawn = 0
    for name, lock, hist in wait_series(result):
        buckets = [b for b in hist if b[1] > 0]
        zero = sum(b[2] for b in hist if b[1] == 0)
        if not buckets:
            continue
        label = f"{name} ({lock['acquisitions']} acquisitions" + (f", {zero} without waiting" if zero else "") + ")"
        ax.bar([b[0] for b in buckets], [b[2] for b in buckets], width=[b[1] - b[0] for b in buckets], align="edge",
               alpha=0.6, label=label)
        drawn += 1
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("wait for the lock (ns), log buckets of 2^(1/8)")
    ax.set_ylabel("acquisitions")
    ax.set_title(title(result), fontsize=9)
    if drawn:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    else:
        ax.text(0.5, 0.5, "no acquisitions", transform=ax.transAxes, ha="center")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    return save(fig, out_dir, "wait_histogram")


def plot_share(result, out_dir):
    cores = contenders(result)
    many = len(cores) > MANY
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, max(7, (0.12 if many else 1.2) * len(cores) + 2)), 4.5))
    ids = [c["id"] if many else core_label(c).replace(" @ ", "\n") for c in cores]
    shares = [c["lock"]["share"] for c in cores]
    colours = [VERDICT_COLOURS.get(c["lock"].get("verdict"), "#777777") for c in cores]
    bars = ax.bar(range(len(cores)), shares, color=colours, width=0.8)
    if many:  # one tick per cluster at its first core; the verdicts are the colours
        firsts = {}
        for i, c in enumerate(cores):
            firsts.setdefault(c.get("cluster", c["id"]), i)
        ax.set_xticks(list(firsts.values()), [f"{k} ({clock(cores[i]['freq_mhz'])})" for k, i in firsts.items()],
                      fontsize=8, ha="left")
        ax.set_xlabel(f"{len(cores)} contending cores in order; colour = verdict")
        for verdict, colour in VERDICT_COLOURS.items():
            if any(c["lock"].get("verdict") == verdict for c in cores):
                ax.bar([0], [0], color=colour, label=verdict)
    else:
        ax.set_xticks(range(len(cores)), ids)
        for bar, c in zip(bars, cores):
            ax.annotate(f"{c['lock']['acquisitions']}\n{c['lock'].get('verdict', '')}",
                        (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center", va="bottom", fontsize=8)
    if cores:
        ax.axhline(1 / len(cores), color="black", linestyle="--", linewidth=1, label="fair share")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("share of the acquisitions")
    jain = result.get("fairness", {}).get("jain")
    ax.set_title(title(result) + (f"; Jain's index {jain:.3f}" if jain is not None else ""), fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "share")


LINE_KINDS = (("gets", "GetS (read)"), ("getm", "GetM (write miss)"), ("upgrades", "Upg (write hit S)"),
              ("exclusive_fails", "failed exclusives"))


def plot_lines(result, out_dir):
    """The busiest lines' coherence traffic at the home, by request kind."""
    lines = sorted(result.get("lines", []), key=lambda l: -l.get("requests", 0))[:MANY]
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, max(7, 1.0 * len(lines) + 3)), 4.5))
    names = [f"{l.get('symbol') or ''}\n{l['address']}" for l in lines]
    bottom = [0] * len(lines)
    for key, label in LINE_KINDS:
        vals = [l.get(key, 0) for l in lines]
        if any(vals):
            ax.bar(range(len(lines)), vals, bottom=bottom, label=label)
            bottom = [b + v for b, v in zip(bottom, vals)]
    for i, l in enumerate(lines):
        ax.annotate(f"{l.get('cross_cluster_transfers', 0)} cross-cluster", (i, bottom[i]), ha="center", va="bottom",
                    fontsize=7)
    ax.set_xticks(range(len(lines)), names, fontsize=8)
    ax.set_ylabel("coherence requests served by the home")
    ax.set_title(title(result), fontsize=9)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    fig.tight_layout()
    return save(fig, out_dir, "lines")


def plot_regions(result, out_dir):
    """Each core's named regions (region NAME .. endregion): mean time per visit, visits annotated."""
    rows = []
    for c in result.get("cores", [])[:4 * MANY]:
        for name, r in (c.get("regions") or {}).items():
            if r.get("hit"):
                rows.append((f"{c['id']} {name}", r["avg_ns"], r["hit"]))
        for o in c.get("regions_open_at_end", []):
            rows.append((f"{c['id']} {o['region']} (open at the end)", o["open_ns"], 0))
    fig, ax = plt.subplots(figsize=(8, min(12, 1.5 + 0.35 * len(rows))))
    ax.barh(range(len(rows)), [r[1] for r in rows], color=["#4477aa" if r[2] else "#bbbbbb" for r in rows])
    for i, r in enumerate(rows):
        ax.annotate((f" {r[2]} visit" + ("s" if r[2] > 1 else "")) if r[2] else " unfinished", (r[1], i), va="center", fontsize=7)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("mean time in the region (ns)")
    ax.set_title(title(result), fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "regions")


def plot_run(result, out_dir):
    """Every plot the run has data for: waits and shares when cores took a lock, the busiest lines'
    traffic, the region profile."""
    written = []
    if contenders(result):
        written += plot_waits(result, out_dir) + plot_share(result, out_dir)
    if result.get("lines"):
        written += plot_lines(result, out_dir)
    if any(c.get("regions") or c.get("regions_open_at_end") for c in result.get("cores", [])):
        written += plot_regions(result, out_dir)
    if not written:
        print("cohsim plot: the run has no lock acquisitions, no coherence traffic and no regions: nothing to draw",
              file=sys.stderr)
    return written


def quantity(text):
    """A swept value as a number for ordering: 1.2GHz -> 1.2e9, 20ms -> 0.02, 7 -> 7."""
    import re
    m = re.fullmatch(r"\s*(-?[0-9.]+)\s*([A-Za-z]*)\s*", text)
    if not m:
        return None
    scale = {"": 1, "Hz": 1, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9, "fs": 1e-15, "ps": 1e-12, "ns": 1e-9, "us": 1e-6,
             "ms": 1e-3, "s": 1, "B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "cycles": 1}.get(m.group(2))
    return None if scale is None else float(m.group(1)) * scale


def ordered(values):
    vals = list(dict.fromkeys(values))
    nums = [quantity(v) for v in vals]
    if all(n is not None for n in nums):
        return [v for _, v in sorted(zip(nums, vals))]
    return vals


def num(text):
    """A results.csv field as a number: empty (undefined, e.g. a percentile of no waits) is NaN."""
    return float(text) if text not in ("", None) else float("nan")


def load_sweep(sweep_dir):
    import csv
    path = os.path.join(sweep_dir, "results.csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except FileNotFoundError:
        fail(f"{path}: no such file (expected the --out directory of `cohsim sweep`)")
    with open(os.path.join(sweep_dir, "sweep.json")) as f:
        manifest = json.load(f)
    return rows, [a["path"] for a in manifest["axes"]]


def plot_sweep(a):
    rows, axes = load_sweep(a.sweep_dir)
    if not rows:
        fail(f"{a.sweep_dir}/results.csv has no finished points")
    if not a.x:
        if len(axes) != 1:
            fail(f"the sweep varies {len(axes)} paths: say which goes along x with --x (swept: {', '.join(axes)})")
        a.x = axes[0]
    for p in [a.x] + ([a.y] if a.y else []):
        if p not in axes:
            fail(f"--x/--y {p}: not a swept path (swept: {', '.join(axes)})")
    if a.metric not in rows[0]:
        cols = [c for c in rows[0] if c not in axes and c not in ("point", "core", "cluster", "type")]
        fail(f"--metric {a.metric}: not a column of results.csv (columns: {', '.join(cols)})")
    contenders = [r for r in rows if r["verdict"]]
    if a.core:
        core = a.core
        if not any(r["core"] == core for r in rows):
            fail(f"--core {core}: no such core in results.csv")
    else:
        if not contenders:
            fail("no core takes a lock in this sweep; name one with --core")
        shares = {}
        for r in contenders:
            shares.setdefault(r["core"], []).append(num(r["share"]))
        core = min(shares, key=lambda c: sum(shares[c]) / len(shares[c]))
    mine = [r for r in rows if r["core"] == core]
    others = [p for p in axes if p not in (a.x, a.y)]
    groups = {}
    for r in mine:
        groups.setdefault(tuple(r[p] for p in others), []).append(r)
    xs = ordered(r[a.x] for r in mine)
    label = lambda key: ", ".join(f"{p.split('.')[-1]}={v}" for p, v in zip(others, key)) or "all points"
    if a.y:
        ys = ordered(r[a.y] for r in mine)
        keys = sorted(groups)
        fig, axs = plt.subplots(1, len(keys), figsize=(2 + (0.6 * len(xs) + 1.2) * len(keys), 2.2 + 0.45 * len(ys)),
                                squeeze=False, constrained_layout=True)
        allv = [num(r[a.metric]) for r in mine]
        vmin, vmax = min(allv), max(allv)
        for ax, key in zip(axs[0], keys):
            grid = [[float("nan")] * len(xs) for _ in ys]
            starved = [[False] * len(xs) for _ in ys]
            for r in groups[key]:
                i, j = ys.index(r[a.y]), xs.index(r[a.x])
                grid[i][j] = num(r[a.metric])
                starved[i][j] = r["verdict"] == "STARVED"
            im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=vmin, vmax=vmax)
            # Outline the starved region: edges between a starved cell and a cell that is not.
            for i in range(len(ys)):
                for j in range(len(xs)):
                    if not starved[i][j]:
                        continue
                    for di, dj, seg in ((0, -1, ([j - .5, j - .5], [i - .5, i + .5])), (0, 1, ([j + .5, j + .5], [i - .5, i + .5])),
                                        (-1, 0, ([j - .5, j + .5], [i - .5, i - .5])), (1, 0, ([j - .5, j + .5], [i + .5, i + .5]))):
                        ni, nj = i + di, j + dj
                        if not (0 <= ni < len(ys) and 0 <= nj < len(xs)) or not starved[ni][nj]:
                            ax.plot(*seg, color="red", linewidth=2)
            ax.set_xticks(range(len(xs)), xs, rotation=45, ha="right", fontsize=8)
            ax.set_yticks(range(len(ys)), ys, fontsize=8)
            ax.set_xlabel(a.x)
            ax.set_ylabel(a.y)
            ax.set_title(label(key), fontsize=9)
        fig.colorbar(im, ax=list(axs[0]), label=f"{a.metric} of {core}")
        fig.suptitle(f"{a.metric} of {core}" + (" (median of the members)" if f"{a.metric}_p5" in rows[0] else "") +
                     f"; red outline: {core} STARVED" + (" in most members" if f"{a.metric}_p5" in rows[0] else ""), fontsize=10)
    else:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        banded = f"{a.metric}_p5" in rows[0]  # a sweep with --members: medians and 5-95% bands
        for key in sorted(groups):
            pts = sorted(groups[key], key=lambda r: xs.index(r[a.x]))
            line, = ax.plot([xs.index(r[a.x]) for r in pts], [num(r[a.metric]) for r in pts], marker="o",
                            label=label(key) + (" (median)" if banded else ""))
            if banded:
                ax.fill_between([xs.index(r[a.x]) for r in pts], [num(r[f"{a.metric}_p5"]) for r in pts],
                                [num(r[f"{a.metric}_p95"]) for r in pts], color=line.get_color(), alpha=0.2,
                                label=label(key) + " (5-95% of members)")
            bad = [r for r in pts if r["verdict"] == "STARVED"]
            ax.scatter([xs.index(r[a.x]) for r in bad], [num(r[a.metric]) for r in bad], color="red", zorder=3,
                       s=60, marker="x")
        ax.set_xticks(range(len(xs)), xs, rotation=45, ha="right", fontsize=8)
        ax.set_xlabel(a.x)
        ax.set_ylabel(f"{a.metric} of {core}")
        ax.set_title(f"{a.metric} of {core}; red x: {core} STARVED" + (" (the members' most frequent verdict)" if banded else ""),
                     fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    if not a.y:
        fig.tight_layout()
    out = a.out or a.sweep_dir
    os.makedirs(out, exist_ok=True)
    # The heatmap and the lines of one metric are two files: neither overwrites the other.
    return save(fig, out, f"sweep_{a.metric}" if a.y else f"sweep_{a.metric}_lines")


def plot_predict(a):
    d = a.predict_dir
    try:
        with open(os.path.join(d, "prediction.json")) as f:
            rep = json.load(f)
        with open(os.path.join(d, "members.csv")) as f:
            rows = list(csv.DictReader(f))
    except FileNotFoundError as e:
        fail(f"{e.filename}: no such file (expected the --out directory of `cohsim predict`)")
    out = a.out or d
    os.makedirs(out, exist_ok=True)
    cores = [c["id"] for c in rep["cores"]]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 0.6 * max(len(cores), len(rep["sensitivity"]), 4) + 1.5))
    floor = 1.0  # members with no acquisition are drawn at 1/s on the log axis
    for i, c in enumerate(rep["cores"]):
        rates = [max(float(r[c["id"] + ".acquisitions_per_s"]), floor) for r in rows]
        ax.scatter(rates, [i] * len(rates), s=12, alpha=0.5, color="#555555")
        b = c["acquisitions_per_s"]
        lo, mid, hi = (max(b[k], floor) for k in ("p5", "p50", "p95"))
        ax.plot([lo, hi], [i, i], color="#c0392b", linewidth=4, alpha=0.6)
        ax.plot([mid], [i], marker="|", markersize=18, color="#c0392b")
        verdicts = ", ".join(f"{k} {v}" for k, v in c["verdicts"].items())
        ax.annotate(verdicts, (lo, i + 0.25), fontsize=8)
    ax.set_xscale("log")
    ax.set_yticks(range(len(cores)), cores)
    ax.set_xlabel("acquisitions per second (dots: members; bar: 5-95% band; tick: median)")
    ax.set_ylim(-0.7, len(cores) - 0.3)
    sens = rep["sensitivity"]
    names = [e["path"] + "\n" + e["range"] for e in sens][::-1]
    rho = [e["spearman"] for e in sens][::-1]
    bx.barh(range(len(rho)), rho, color=["#2c5d9a" if r > 0 else "#c0392b" for r in rho])
    bx.set_yticks(range(len(rho)), names, fontsize=7)
    bx.set_xlim(-1, 1)
    bx.axvline(0, color="black", linewidth=0.8)
    n = rep["members"]["done"]
    # Each bar's chance level (members sharing a calibrated draw count once).
    levels = [e.get("chance_level", rep.get("chance_level", 1.0)) for e in sens][::-1]
    for i, lvl in enumerate(levels):
        for x in (-lvl, lvl):
            bx.plot([x, x], [i - 0.45, i + 0.45], color="#999999", linestyle=":", linewidth=0.9)
    bx.set_xlabel(f"Spearman rank correlation with {rep.get('focus_core', '?')}'s rate (dotted: chance level)")
    fig.suptitle(f"{rep['config']}: {n} of {rep['members']['requested']} members")
    fig.tight_layout()
    return save(fig, out, "prediction")


def load_report(d, name):
    """DIR/NAME as JSON, or exit with what went wrong."""
    try:
        with open(os.path.join(d, name)) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"cohsim plot: {d}: cannot read {name} ({e})")


def plot_latmem(a):
    d = a.latmem_dir
    rep = load_report(d, "latmem.json")
    pts = rep["points"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot([p["size_bytes"] / 1024 for p in pts], [p["ns"] for p in pts], marker="o", label="cohsim")
    for c in rep.get("checks", []):
        x = c["size_bytes"] / 1024
        ax.plot([x, x], [c["measured_lo_ns"], c["measured_hi_ns"]], color="#c0392b", linewidth=6, alpha=0.6,
                solid_capstyle="butt")
        ax.plot([x, x], [c["allowed_lo_ns"], c["allowed_hi_ns"]], color="#c0392b", linewidth=1)
    if rep.get("checks"):
        ax.plot([], [], color="#c0392b", linewidth=6, alpha=0.6, label="published (thin: allowed band)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("working set (KiB)")
    ax.set_ylabel("ns per dependent load")
    ax.set_title(f"{rep['platform']}: {rep['core']} at {rep['freq']}")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    out = a.out or d
    os.makedirs(out, exist_ok=True)
    return save(fig, out, "latmem")


def c2c_published(rep):
    """The published matrix as the reference rows give it: each pair of cores
    takes its kind of pair's measured range (its midpoint); NaN where no row
    covers it. None when the report has no checks."""
    checks = rep.get("checks") or []
    if not checks:
        return None
    mid = {c["pairs"]: (c["measured_lo_ns"] + c["measured_hi_ns"]) / 2 for c in checks}
    ids = rep["cores"]
    out = []
    for a in ids:
        row = []
        for b in ids:
            ca, cb = sorted([a.split(".")[0], b.split(".")[0]])
            key = ca if ca == cb else f"{ca}-{cb}"
            row.append(float("nan") if a == b else mid.get(key, float("nan")))
        out.append(row)
    return out


def plot_c2c(a):
    d = a.c2c_dir
    rep = load_report(d, "c2c.json")
    ids = rep["cores"]
    n = len(ids)
    grid = [[float("nan") if v is None else v for v in row] for row in rep["matrix"]]
    published = c2c_published(rep)
    panels = [("cohsim", grid)] + ([("published (per kind of pair, mid-range)", published)] if published else [])
    values = [v for _, g in panels for row in g for v in row if v == v]
    vmin, vmax = (min(values), max(values)) if values else (0, 1)
    size = max(4.0, 0.5 * n + 2)
    fig, axes = plt.subplots(1, len(panels), figsize=((size + 0.5) * len(panels) + 1.5, size), squeeze=False)
    for ax, (name, g) in zip(axes[0], panels):
        im = ax.imshow(g, cmap="viridis", vmin=vmin, vmax=vmax)
        ax.set_xticks(range(n), ids, rotation=90, fontsize=8)
        ax.set_yticks(range(n), ids, fontsize=8)
        if n <= 16:
            for i in range(n):
                for j in range(n):
                    v = g[i][j]
                    if v == v:  # not NaN
                        # Dark text on the light (yellow) end of viridis, white on the dark end.
                        light = (v - vmin) / (vmax - vmin) > 0.6 if vmax > vmin else False
                        ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=7, color="black" if light else "white")
        ax.set_title(name, fontsize=10)
    fig.colorbar(im, ax=list(axes[0]), label="one-way latency (ns per hand-off)")
    insn = {"llsc": "LDXR/STXR", "cas": "CAS"}.get(rep.get("instruction", "auto"), "CAS or LDXR/STXR")
    fig.suptitle(f"{rep['platform']}: core-to-core latency ({insn} ping-pong, {rep['duration']} per pair)")
    out = a.out or d
    os.makedirs(out, exist_ok=True)
    return save(fig, out, "c2c")


def plot_scale(a):
    """Throughput against threads, one line (and 5-95% band) per placement;
    beside it the model events per acquisition (the simulation's cost)."""
    d = a.scale_dir
    rep = load_report(d, "scale.json")
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5))
    placements = []
    for p in rep["points"]:
        if p["placement"] not in placements:
            placements.append(p["placement"])
    banded = rep["members"] > 1
    for placement in placements:
        pts = [p for p in rep["points"] if p["placement"] == placement and p["throughput_per_s"] is not None]
        xs = [p["threads"] for p in pts]
        for axis, key in ((ax, "throughput_per_s"), (bx, "events_per_acquisition")):
            line, = axis.plot(xs, [p[key]["p50"] for p in pts], marker="o", label=placement + (" (median)" if banded else ""))
            if banded:
                axis.fill_between(xs, [p[key]["p5"] for p in pts], [p[key]["p95"] for p in pts], color=line.get_color(),
                                  alpha=0.2, label=placement + " (5-95% of members)")
    for axis in (ax, bx):
        axis.set_xscale("log", base=2)
        axis.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())  # 1, 2, 4, ... rather than 2^k
        axis.set_xlabel("threads")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("lock operations per second (all threads)")
    bx.set_ylabel("model events per lock operation")
    fig.suptitle(f"{rep['platform']}: {rep['program']}, {rep['duration']} per run" +
                 (f", {rep['members']} members per point" if banded else ""))
    fig.tight_layout()
    out = a.out or d
    os.makedirs(out, exist_ok=True)
    return save(fig, out, "scale")


def main():
    p = argparse.ArgumentParser(prog="cohsim plot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="plots of one run's result.json")
    r.add_argument("run_dir")
    r.add_argument("--out", help="where the plots go (default: RUN_DIR)")
    w = sub.add_parser("sweep", help="a heatmap or lines of a sweep's results.csv")
    w.add_argument("sweep_dir")
    w.add_argument("--x", help="the swept path along x (default: the only one, for a sweep along one path)")
    w.add_argument("--y", help="the swept path along y (a heatmap)")
    w.add_argument("--metric", default="share", help="a results.csv column (default: share)")
    w.add_argument("--core", help="whose metric (default: the contending core with the lowest mean share)")
    w.add_argument("--out", help="where the plots go (default: SWEEP_DIR)")
    q = sub.add_parser("predict", help="bands and sensitivities of a `cohsim predict` directory")
    q.add_argument("predict_dir")
    q.add_argument("--out", help="where the plots go (default: PREDICT_DIR)")
    c = sub.add_parser("c2c", help="the heatmap of a `cohsim c2c` directory")
    c.add_argument("c2c_dir")
    c.add_argument("--out", help="where the plots go (default: C2C_DIR)")
    m = sub.add_parser("latmem", help="the curve of a `cohsim latmem` directory")
    m.add_argument("latmem_dir")
    m.add_argument("--out", help="where the plots go (default: LATMEM_DIR)")
    s = sub.add_parser("scale", help="throughput against threads of a `cohsim scale` directory")
    s.add_argument("scale_dir")
    s.add_argument("--out", help="where the plots go (default: SCALE_DIR)")
    a = p.parse_args()
    if a.what == "scale":
        for path in plot_scale(a):
            print(path)
        return
    if a.what == "latmem":
        for path in plot_latmem(a):
            print(path)
        return
    if a.what == "c2c":
        for path in plot_c2c(a):
            print(path)
        return
    if a.what == "predict":
        for path in plot_predict(a):
            print(path)
        return
    if a.what == "sweep":
        for path in plot_sweep(a):
            print(path)
        return
    result = load(a.run_dir)
    out = a.out or a.run_dir
    os.makedirs(out, exist_ok=True)
    for path in plot_run(result, out):
        print(path)


if __name__ == "__main__":
    main()
