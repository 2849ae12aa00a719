#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The plots of the load sweeps (scripts/experiments_load.sh; docs/results-rtl.md, "Multicasts
under load"): one PNG per CSV of the folder, multicast latency against the generation ratio
(rate x K x (alpha + gamma)), one colour per algorithm: the mean with its 95 % confidence interval
(solid, circles), the 95th percentile (dotted, triangles) and the zero-load value (dashed), the
curve's asymptote at low rates. A saturated point (the CSV's `saturated`) is drawn hollow. A
logarithmic latency axis when the means and zero-load values span more than a factor of 20. Written so that the same
CSVs give byte-identical PNGs (the Agg backend, no date or software name in the file).

Usage: plot_load.py DIR   (reads DIR/*.csv, writes DIR/*.png)
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]


def number(text):
    return float(text) if text != "" else None


def plot(csv_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(7.5, 5))
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    values = []
    for colour, algorithm in zip(COLOURS, algorithms):
        mine = sorted((r for r in rows if r["algorithm"] == algorithm), key=lambda r: float(r["ratio"]))
        kept = [r for r in mine if r["mean_latency"] != ""]
        xs = [float(r["ratio"]) for r in kept]
        means = [float(r["mean_latency"]) for r in kept]
        ci = [number(r["ci95_latency"]) or 0.0 for r in kept]
        p95 = [float(r["p95_latency"]) for r in kept]
        values += means
        ax.errorbar(xs, means, yerr=ci, fmt="-", color=colour, capsize=3, label=f"{algorithm}: mean, 95 % CI")
        for x, y, r in zip(xs, means, kept):
            hollow = r["saturated"] == "1"
            ax.plot([x], [y], "o", color=colour, markersize=5, markerfacecolor="none" if hollow else colour)
        ax.plot(xs, p95, ":", marker="^", color=colour, markersize=4, label=f"{algorithm}: 95th percentile")
        zero = [(float(r["ratio"]), float(r["mean_analytic"])) for r in mine if r["mean_analytic"] != ""]
        ax.plot([x for x, _ in zero], [y for _, y in zero], "--", color=colour, label=f"{algorithm}: zero load")
        values += [y for _, y in zero]
    first = rows[0]
    if values and max(values) > 20 * min(v for v in values if v > 0):
        ax.set_yscale("log")
    backend = "RTL = timing model (checked)" if first["backend"] == "rtl" else "timing model"
    unicasts = f", unicasts {first['unicast_load']} flits/node/cycle" if float(first["unicast_load"]) > 0 else ""
    ax.set_title(
        f"{first['topology']}, K = {first['k']}, L = {first['length']}, alpha = gamma = {first['alpha']}"
        f"{unicasts}\n{backend}; hollow: saturated",
        fontsize=10,
    )
    ax.set_xlabel("generation ratio = rate x K x (alpha + gamma)")
    ax.set_ylabel("multicast latency (cycles)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(csv_path.with_suffix(".png"), dpi=110, metadata={"Software": None})
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    folder = Path(sys.argv[1])
    for path in sorted(folder.glob("*.csv")):
        plot(path)
        print(f"wrote {path.with_suffix('.png')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
