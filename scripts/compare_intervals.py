#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where two algorithms' 95 % confidence intervals separate, point by point, in sweep CSVs
(`wormcast sweep`, planning or multicast: the mean_X and ci95_X columns; docs/results.md,
"Uncertainty"). A point is a row's K with its topology, source, length and alpha where the CSV has
them; both algorithms must have a row there.

Usage: compare_intervals.py METRIC A B CSV...     (METRIC: latency, steps, traffic, model, ...)
Prints one line per point (A's mean +- half-width, B's, and A < B, A > B or "not separated") and
a summary line: at how many points A's interval lies wholly below B's, wholly above, or overlaps.
"""
import csv
import signal
import sys

POINT_COLUMNS = ("topology", "source", "k", "length", "alpha")


def bad_input(message):
    print(f"compare_intervals: {message}", file=sys.stderr)
    sys.exit(2)


def read_points(paths, metric):
    points = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if f"ci95_{metric}" not in row:
                    bad_input(f"{path} has no ci95_{metric} column; METRIC names a mean_X with its ci95_X")
                key = tuple(row[c] for c in POINT_COLUMNS if c in row)
                half = row[f"ci95_{metric}"]
                points.setdefault(key, {})[row["algorithm"]] = (float(row[f"mean_{metric}"]),
                                                                float(half) if half else 0.0, int(row["runs"]))
    return points


def main():
    if len(sys.argv) < 5:
        bad_input(__doc__)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    metric, a, b, paths = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    below = above = overlap = 0
    for key, by_algorithm in read_points(paths, metric).items():
        if a not in by_algorithm or b not in by_algorithm:
            continue
        (ma, ha, na), (mb, hb, nb) = by_algorithm[a], by_algorithm[b]
        if ma + ha < mb - hb:
            verdict, below = f"{a} < {b}", below + 1
        elif ma - ha > mb + hb:
            verdict, above = f"{a} > {b}", above + 1
        else:
            verdict, overlap = "not separated", overlap + 1
        print(f"{' '.join(key):<28} {a} {ma:.4g} +- {ha:.2g} ({na})  {b} {mb:.4g} +- {hb:.2g} ({nb})  {verdict}")
    print(f"{metric}: {a} below {b} at {below}, above at {above}, not separated at {overlap} points")


if __name__ == "__main__":
    main()
