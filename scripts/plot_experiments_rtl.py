#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The plots of `make experiments-rtl` (scripts/experiments_rtl.sh; docs/results-rtl.md): one PNG
per CSV of the folder, the measured multicast latency on the RTL (solid, circles) and on the timing
model (crosses) with the analytic estimate (dashed) beside them; seed 004 also the planner's hops.
Every mean is drawn with its 95 % confidence interval as an error bar (the CSV's ci95_ columns; none
where a point has one run). Written so that the same CSVs give byte-identical PNGs (the Agg backend,
no date or software name in the file).

Usage: plot_experiments_rtl.py DIR   (reads DIR/seed*.csv, writes DIR/seed*.png)
"""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    return float(text) if text != "" else None


def half_widths(rows, column):
    """The 95 % confidence half-widths of a mean column (its ci95_ column; 0 for one run)."""
    return [number(r.get("ci95_" + column, "")) or 0.0 for r in rows]


def nodes(topology):
    """The node count of a topology spec (mesh:4x4 -> 16)."""
    sizes = topology.split(":")[1].split("x")
    count = 1
    for s in sizes:
        count *= int(s)
    return count


def latency_lines(ax, rows, x_of, label_prefix=""):
    """RTL, timing model and analytic mean latency against x, one colour per algorithm."""
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    for colour, algorithm in zip(COLOURS, algorithms):
        mine = sorted((r for r in rows if r["algorithm"] == algorithm), key=x_of)
        xs = [x_of(r) for r in mine]
        name = label_prefix + algorithm
        rtl = [number(r["mean_rtl"]) for r in mine]
        if all(v is not None for v in rtl):
            ax.errorbar(xs, rtl, yerr=half_widths(mine, "rtl"), fmt="o-", color=colour, label=f"{name}: RTL",
                        markersize=4, capsize=3)
        ax.errorbar(xs, [number(r["mean_model"]) for r in mine], yerr=half_widths(mine, "model"), fmt="x",
                    color=colour, label=f"{name}: timing model", markersize=7, capsize=3)
        ax.errorbar(xs, [number(r["mean_analytic"]) for r in mine], yerr=half_widths(mine, "analytic"), fmt="--",
                    color=colour, label=f"{name}: analytic", linewidth=1, capsize=2, elinewidth=0.7)
    ax.set_ylabel("mean multicast latency (cycles)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def plan_lines(ax, rows, x_of, column, ylabel):
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    for colour, algorithm in zip(COLOURS, algorithms):
        mine = sorted((r for r in rows if r["algorithm"] == algorithm), key=x_of)
        ax.errorbar([x_of(r) for r in mine], [number(r[column]) for r in mine],
                    yerr=half_widths(mine, column.removeprefix("mean_")), fmt="s-", color=colour, label=algorithm,
                    markersize=4, capsize=3)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def params(rows):
    r = rows[0]
    return f"L = {r['length']}, alpha = {r['alpha']}, gamma = {r['gamma']}, {r['runs']} runs per point"


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    print(f"wrote {path}")


def k_of(r):
    return int(r["k"])


def seed000(rows, path):
    fig, ax = plt.subplots(figsize=(7, 5))
    latency_lines(ax, rows, k_of)
    ax.set_xlabel("destinations K")
    ax.set_title(f"Seed 000: one-port vs two-port on {rows[0]['topology']}\n{params(rows)}", fontsize=10)
    save(fig, path)


def length_of(r):
    return int(r["length"])


def seed000_length(rows, path):
    fig, ax = plt.subplots(figsize=(7, 5))
    latency_lines(ax, rows, length_of)
    ax.set_xlabel("message length L (data words)")
    r = rows[0]
    ax.set_title(f"Seed 000, Fig. 8: one-port vs two-port on {r['topology']}, K = {r['k']}\n"
                 f"alpha = gamma = {r['alpha']}, {r['runs']} random requests per L", fontsize=10)
    save(fig, path)


def seed002_length(rows, path):
    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    fig, axes = plt.subplots(2, len(topologies), figsize=(6 * len(topologies), 10), squeeze=False)
    for column, topology in enumerate(topologies):
        for row, source in enumerate(["origin", "random"]):
            ax = axes[row][column]
            mine = [r for r in rows if r["topology"] == topology and r["source"] == source]
            latency_lines(ax, mine, length_of)
            ax.set_xlabel("message length L (flits)")
            where = "from the corner (0,0)" if source == "origin" else f"{mine[0]['runs']} random sources"
            ax.set_title(f"{topology}, broadcast {where}; alpha = gamma = {mine[0]['alpha']}", fontsize=9)
    fig.suptitle("Seed 002, Fig. 5: PCP vs RD (EDN, NP-D beside them) against the message length", fontsize=10)
    save(fig, path)


def by_topology(rows, path, title):
    topologies = list(dict.fromkeys(r["topology"] for r in rows))
    fig, axes = plt.subplots(1, len(topologies), figsize=(6 * len(topologies), 5), squeeze=False)
    for ax, topology in zip(axes[0], topologies):
        mine = [r for r in rows if r["topology"] == topology]
        latency_lines(ax, mine, k_of)
        ax.set_xlabel("destinations K")
        ax.set_title(f"{topology}: {params(mine)}", fontsize=9)
    fig.suptitle(title, fontsize=10)
    save(fig, path)


def seed002(rows, path):
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    for ax, source in zip(axes, ["origin", "random"]):
        mine = [r for r in rows if r["source"] == source]
        latency_lines(ax, mine, lambda r: nodes(r["topology"]))
        ax.set_xscale("log", base=2)
        ax.set_xlabel("nodes N (mesh 4x4, 8x8, 16x16)")
        where = "from the corner (0,0)" if source == "origin" else f"random sources, {mine[0]['runs']} per mesh"
        ax.set_title(f"broadcast {where}; L = {mine[0]['length']}, alpha = gamma = {mine[0]['alpha']}", fontsize=9)
    fig.suptitle("Seed 002: PCP vs RD vs EDN vs NP-D broadcast on 2D meshes", fontsize=10)
    save(fig, path)


def seed003(rows, path):
    alphas = sorted({int(r["alpha"]) for r in rows})
    fig, axes = plt.subplots(1, len(alphas), figsize=(6 * len(alphas), 5), squeeze=False)
    for ax, alpha in zip(axes[0], alphas):
        mine = [r for r in rows if int(r["alpha"]) == alpha]
        latency_lines(ax, mine, length_of)
        ax.set_xlabel("message length L (data words of 8 bytes)")
        ax.set_title(f"alpha = gamma = {alpha} cycles, {mine[0]['runs']} random sources per L", fontsize=9)
    fig.suptitle(f"Seed 003: 3-DBL vs 3-DBS broadcast on {rows[0]['topology']}", fontsize=10)
    save(fig, path)


def seed004(rows, path, column, ylabel, title):
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    latency_lines(axes[0], rows, k_of)
    axes[0].set_xlabel("destinations K")
    axes[0].set_title(f"on the routers: {params(rows)}", fontsize=9)
    plan_lines(axes[1], rows, k_of, column, ylabel)
    axes[1].set_xlabel("destinations K")
    axes[1].set_title("the planner, on the same requests", fontsize=9)
    fig.suptitle(f"{title} on {rows[0]['topology']}", fontsize=10)
    save(fig, path)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_experiments_rtl.py DIR")
    folder = Path(sys.argv[1])
    plots = {
        "seed000_unicast_mesh16x16": seed000,
        "seed000_length_mesh16x16": seed000_length,
        "seed001_dualpath_torus16x16_star5": lambda rows, path: by_topology(
            rows, path, "Seed 001: uniform vs fixed vs dual-path (Hamiltonian cycle against path)"),
        "seed002_broadcast_mesh": seed002,
        "seed002_length_mesh4x4_8x8": seed002_length,
        "seed003_broadcast_mesh5x5x5": seed003,
        "seed004_xypath_lin_mesh10x10": lambda rows, path: seed004(
            rows, path, "mean_max_hops", "planner: longest path D (hops)", "Seed 004: XY-path vs LIN"),
        "seed004_trees_mesh10x10": lambda rows, path: seed004(
            rows, path, "mean_steps", "planner: time in hops (store-and-forward steps)",
            "Seed 004: VH, DIAG, DDS, MIN trees"),
    }
    drawn = 0
    for name, plot in plots.items():
        csv_path = folder / f"{name}.csv"
        if csv_path.exists():
            rows = read_rows(csv_path)
            if rows and "ci95_model" not in rows[0]:
                print(f"{csv_path}: no ci95_ columns (written before they were): drawn without error bars",
                      file=sys.stderr)
            plot(rows, folder / f"{name}.png")
            drawn += 1
    if drawn == 0:
        sys.exit(f"plot_experiments_rtl.py: no experiment CSV in {folder}")


if __name__ == "__main__":
    main()
