#!/usr/bin/python3
"""Plots of cohsim results, as PNG and SVG, with matplotlib (Debian's
python3-matplotlib). Usually run through `cohsim plot RUN_DIR`.

  plot.py run RUN_DIR [--out DIR]
      RUN_DIR/result.json -> wait_histogram.{png,svg} (each contending core's
      wait-time histogram, log-bucketed as in the JSON) and share.{png,svg}
      (each core's share of the acquisitions against its fair share, coloured
      by its verdict). Written into --out (default RUN_DIR).
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "cohsim"  # identical SVGs for identical results
import matplotlib.pyplot as plt  # noqa: E402

VERDICT_COLOURS = {"fair": "#4c9a2a", "DISADVANTAGED": "#e0a100", "STARVED": "#c0392b"}


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


def save(fig, out_dir, name):
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


def title(result):
    t = result.get("description") or result.get("config_source", "")
    return f"{t}\n{result.get('simulated_ns', 0) / 1e9:g} s simulated, seed {result.get('seed')}"


def plot_waits(result, out_dir):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    drawn = 0
    for c in contenders(result):
        hist = c["lock"].get("wait_ns", {}).get("histogram", [])
        buckets = [b for b in hist if b[1] > 0]
        zero = sum(b[2] for b in hist if b[1] == 0)
        if not buckets:
            continue
        label = f"{c['id']} ({c['lock']['acquisitions']} acquisitions" + (f", {zero} without waiting" if zero else "") + ")"
        ax.bar([b[0] for b in buckets], [b[2] for b in buckets], width=[b[1] - b[0] for b in buckets], align="edge",
               alpha=0.6, label=label)
        drawn += 1
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("wait for the lock (ns), log buckets of 2^(1/8)")
    ax.set_ylabel("acquisitions")
    ax.set_title(title(result), fontsize=9)
    if drawn:
        ax.legend(fontsize=8)
    else:
        ax.text(0.5, 0.5, "no acquisitions", transform=ax.transAxes, ha="center")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    return save(fig, out_dir, "wait_histogram")


def plot_share(result, out_dir):
    cores = contenders(result)
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(cores) + 2), 4.5))
    ids = [c["id"] for c in cores]
    shares = [c["lock"]["share"] for c in cores]
    colours = [VERDICT_COLOURS.get(c["lock"].get("verdict"), "#777777") for c in cores]
    bars = ax.bar(ids, shares, color=colours)
    for bar, c in zip(bars, cores):
        ax.annotate(f"{c['lock']['acquisitions']}\n{c['lock'].get('verdict', '')}", (bar.get_x() + bar.get_width() / 2,
                    bar.get_height()), ha="center", va="bottom", fontsize=8)
    if cores:
        ax.axhline(1 / len(cores), color="black", linestyle="--", linewidth=1, label="fair share")
        ax.legend(fontsize=8)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("share of the acquisitions")
    jain = result.get("fairness", {}).get("jain")
    ax.set_title(title(result) + (f"; Jain's index {jain:.3f}" if jain is not None else ""), fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "share")


def main():
    p = argparse.ArgumentParser(prog="cohsim plot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="plots of one run's result.json")
    r.add_argument("run_dir")
    r.add_argument("--out", help="where the plots go (default: RUN_DIR)")
    a = p.parse_args()
    result = load(a.run_dir)
    out = a.out or a.run_dir
    os.makedirs(out, exist_ok=True)
    for path in plot_waits(result, out) + plot_share(result, out):
        print(path)


if __name__ == "__main__":
    main()
