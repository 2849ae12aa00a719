#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Latency plots of a `wormcast sweep --backend` CSV (sim/traffic_sweep.cpp writes it).

Usage: plot_traffic.py SWEEP_CSV OUT_DIR
Writes OUT_DIR/latency_load.png (mean packet latency against offered load, one line per backend,
routing and multicast mix) and, when the CSV has several destination counts, OUT_DIR/latency_destinations.png
(mean latency against K, one line per backend and load). Saturated points are drawn hollow.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402


def main(csv_path, out_dir):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"plot_traffic: {csv_path} has no rows")
    title = f"{rows[0]['topology']}, L = {rows[0]['length']} flits"

    by_k = defaultdict(list)
    for r in rows:
        by_k[(r["backend"], r["routing"], int(r["destinations"]), float(r["multicast_fraction"]))].append(r)
    fig, ax = plt.subplots(figsize=(6, 4))
    # One colour per traffic (routing, multicast mix), one style per backend; the model is drawn
    # last, dashed with small markers, so that where it agrees with the RTL both show.
    colours = {}
    for (backend, routing, k, fraction), points in sorted(by_k.items(), key=lambda kv: (kv[0][0] == "model", kv[0])):
        points.sort(key=lambda r: float(r["load"]))
        label = f"{backend}, {routing}" + ("" if fraction == 0 else f", {fraction:g} multicast K={k}")
        xs = [float(r["offered"]) for r in points]
        ys = [float(r["mean_latency"]) for r in points]
        colour = colours.setdefault((routing, k, fraction), f"C{len(colours)}")
        model = backend == "model"
        ax.plot(xs, ys, "--" if model else "-", color=colour, lw=1 if model else 2.5, alpha=1 if model else 0.5,
                label=label)
        for x, y, r in zip(xs, ys, points):
            hollow = r["saturated"] == "1"
            ax.plot(x, y, "o", color=colour, ms=3 if model else 7, mfc="none" if hollow else colour)
    ax.set_xlabel("offered load (flits/node/cycle)")
    ax.set_ylabel("mean packet latency (cycles)")
    ax.set_yscale("log")
    finish(fig, ax, title, f"{out_dir}/latency_load.png")

    ks = {int(r["destinations"]) for r in rows}
    if len(ks) > 1:
        by_load = defaultdict(list)
        for r in rows:
            by_load[(r["backend"], float(r["load"]))].append(r)
        fig, ax = plt.subplots(figsize=(6, 4))
        for (backend, load), points in sorted(by_load.items()):
            points.sort(key=lambda r: int(r["destinations"]))
            ax.plot([int(r["destinations"]) for r in points], [float(r["mean_multicast_latency"]) for r in points],
                    "o-", label=f"{backend}, load {load:g}")
        ax.set_xlabel("destinations per multicast (K)")
        ax.set_ylabel("mean multicast latency to the last destination (cycles)")
        finish(fig, ax, title, f"{out_dir}/latency_destinations.png")


def finish(fig, ax, title, path):
    """Title, grid and legend of one plot, then the PNG."""
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
