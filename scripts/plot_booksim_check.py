#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The plot of the outside check against BookSim2 (docs/results.md, "An outside check: BookSim2"):
mean packet latency against offered load on the 8x8 mesh, wormcast's RTL (one seed, the sweep's
CSV) beside BookSim2 at each buffer depth it ran (the mean over its seeds, their range as a band),
and, when given, the timing model's seeds as a band around the RTL (the model gives the RTL's
cycles, so it stands in for the RTL at the other seeds). Saturated RTL points are drawn hollow.
Written so that the same CSVs give the same PNG (the Agg backend, no date in the file).

Usage: plot_booksim_check.py RTL_SWEEP_CSV BOOKSIM_CSV OUT_PNG [MODEL_SEEDS_CSV]
  RTL_SWEEP_CSV and MODEL_SEEDS_CSV: `wormcast sweep --backend ...` CSVs (the model's may hold
  several seeds); BOOKSIM_CSV: vc_buf_size,seed,load,...,mean_latency,... one row per run.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)


def read_rows(path, columns):
    """The rows of a CSV that has `columns`; a missing file, no rows or a missing column: exit 2."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.stderr.write(f"plot_booksim_check: cannot read {path}: {e.strerror}\n")
        sys.exit(2)
    if not rows:
        sys.stderr.write(f"plot_booksim_check: {path} has no rows\n")
        sys.exit(2)
    missing = [c for c in columns if c not in rows[0]]
    if missing:
        sys.stderr.write(f"plot_booksim_check: {path} lacks the column(s) {', '.join(missing)}; "
                         f"needed: {', '.join(columns)}\n")
        sys.exit(2)
    return rows


def spread(rows, key):
    """Per load: (load, mean, min, max) of column `key` over the rows sharing the load."""
    by_load = defaultdict(list)
    for r in rows:
        by_load[float(r["load"])].append(float(r[key]))
    return [(x, sum(v) / len(v), min(v), max(v)) for x, v in sorted(by_load.items())]


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    sweep_columns = ("topology", "routing", "length", "load", "seed", "mean_latency", "saturated")
    rtl = sorted(read_rows(argv[1], sweep_columns), key=lambda r: float(r["load"]))
    booksim = read_rows(argv[2], ("vc_buf_size", "seed", "load", "mean_latency"))
    fig, ax = plt.subplots(figsize=(7, 4.5))

    if len(argv) == 5:
        model_rows = read_rows(argv[4], sweep_columns)
        model = spread(model_rows, "mean_latency")
        seeds = len({r["seed"] for r in model_rows})
        ax.fill_between([p[0] for p in model], [p[2] for p in model], [p[3] for p in model], color="C0",
                        alpha=0.2, label=f"wormcast timing model, {seeds} seeds (range)")

    xs = [float(r["load"]) for r in rtl]
    ys = [float(r["mean_latency"]) for r in rtl]
    ax.plot(xs, ys, "-", color="C0")
    for x, y, r in zip(xs, ys, rtl):
        ax.plot([x], [y], "o", color="C0", markerfacecolor="white" if r["saturated"] == "1" else "C0")
    ax.plot([], [], "o-", color="C0", label="wormcast RTL, seed 1 (hollow: saturated)")

    by_depth = defaultdict(list)
    for r in booksim:
        by_depth[int(r["vc_buf_size"])].append(r)
    for i, (depth, rows) in enumerate(sorted(by_depth.items())):
        points = spread(rows, "mean_latency")
        seeds = len({r["seed"] for r in rows})
        colour = f"C{i + 1}"
        ax.plot([p[0] for p in points], [p[1] for p in points], "s--", color=colour, markersize=4,
                label=f"BookSim2, {depth}-flit buffers, mean of {seeds} seeds")
        ax.fill_between([p[0] for p in points], [p[2] for p in points], [p[3] for p in points], color=colour,
                        alpha=0.15)

    ax.set_yscale("log")
    ax.set_xlabel("offered load (flits/node/cycle)")
    ax.set_ylabel("mean packet latency (cycles, creation to tail)")
    ax.set_title(f"{rtl[0]['topology']}, uniform, {rtl[0]['routing']}, L = {rtl[0]['length']} flits, 1 VC")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[3], dpi=100, metadata={"Software": None})
    print(f"wrote {argv[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
