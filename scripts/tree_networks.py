#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The thesis's tree algorithms across its four networks (docs/results.md, "Torus against mesh,
2D against 3D"): from the planning sweeps of `make experiments` (docs/results/trees_*.csv), per
algorithm the mean over the K sweep of the time (steps), the traffic and the additional traffic
(AAT) on each network, and the changes the thesis's text describes: torus against mesh of the
same size, and on each network the gaps between the algorithms. Written as a Markdown table.

Usage: tree_networks.py DIR [OUT.md]   (reads DIR/trees_{mesh,torus}_{20x20,10x10x10}.csv; OUT.md
default DIR/trees_networks.md). Exit 2 when a CSV is missing or lacks a column.
"""
import csv
import sys
from pathlib import Path

NETWORKS = [("mesh", "20x20"), ("torus", "20x20"), ("mesh", "10x10x10"), ("torus", "10x10x10")]
ALGORITHMS = ["vh", "diag", "dds", "min"]
METRICS = [("steps", "time (steps)"), ("traffic", "traffic"), ("additional_traffic", "AAT")]


def bad_input(message):
    print(f"tree_networks: {message}", file=sys.stderr)
    sys.exit(2)


def means_over_k(path):
    """{algorithm: {metric: mean over the CSV's K rows of mean_<metric>}}."""
    sums = {}
    try:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                for metric, _ in METRICS:
                    if f"mean_{metric}" not in row:
                        bad_input(f"{path} has no mean_{metric} column")
                    entry = sums.setdefault(row["algorithm"], {}).setdefault(metric, [0.0, 0])
                    entry[0] += float(row[f"mean_{metric}"])
                    entry[1] += 1
    except OSError as error:
        bad_input(f"cannot read {path}: {error.strerror}")
    return {a: {m: total / count for m, (total, count) in per.items()} for a, per in sums.items()}


def change(new, old):
    return f"{100.0 * (new - old) / old:+.1f} %"


def tables(folder):
    data = {}
    for kind, size in NETWORKS:
        path = folder / f"trees_{kind}_{size}.csv"
        means = means_over_k(path)
        missing = [a for a in ALGORITHMS if a not in means]
        if missing:
            bad_input(f"{path} has no rows for {', '.join(missing)}")
        data[(kind, size)] = means
    lines = ["<!-- Written by scripts/tree_networks.py from the trees_*.csv of make experiments; do not edit. -->",
             "", "Means over each CSV's K sweep (VH / DIAG / DDS / MIN).", "",
             "**Torus against mesh of the same size** (the torus's mean, then its change from the mesh's):", "",
             "| network | metric | VH | DIAG | DDS | MIN |", "|---|---|---:|---:|---:|---:|"]
    for size in ("20x20", "10x10x10"):
        mesh, torus = data[("mesh", size)], data[("torus", size)]
        for metric, label in METRICS:
            cells = [f"{torus[a][metric]:.2f} ({change(torus[a][metric], mesh[a][metric])})" for a in ALGORITHMS]
            lines.append(f"| torus {size} | {label} | " + " | ".join(cells) + " |")
    lines += ["", "**Gaps between the algorithms on each network** (A - B: A's mean minus B's, then relative "
              "to B's):", "",
              "| network | DDS - DIAG, time | DDS - MIN, time | DIAG - VH, AAT | DIAG - MIN, traffic | "
              "DDS - MIN, traffic |", "|---|---:|---:|---:|---:|---:|"]
    for kind, size in NETWORKS:
        m = data[(kind, size)]

        def gap(a, b, metric):
            return f"{m[a][metric] - m[b][metric]:+.2f} ({change(m[a][metric], m[b][metric])})"

        lines.append(f"| {kind} {size} | {gap('dds', 'diag', 'steps')} | {gap('dds', 'min', 'steps')} | "
                     f"{gap('diag', 'vh', 'additional_traffic')} | {gap('diag', 'min', 'traffic')} | "
                     f"{gap('dds', 'min', 'traffic')} |")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) not in (2, 3):
        bad_input("usage: tree_networks.py DIR [OUT.md]")
    folder = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) == 3 else folder / "trees_networks.md"
    text = tables(folder)
    try:
        out.write_text(text)
    except OSError as error:
        bad_input(f"cannot write {out}: {error.strerror}")
    print(text, end="")


if __name__ == "__main__":
    main()
