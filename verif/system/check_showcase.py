#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_showcase.py WORMCAST OUT: `wormcast showcase` in a reduced form (mesh:4x4; dual-path, vh and
rd; one random multicast each plus a broadcast, then the mixed row) exits 0 with every check
passing, writes summary.md, and summary.csv with exactly the expected runs, each single run with a
drawing that passes check_svg.py, the mix with a request file of as many requests as its row says,
each of the algorithms asked for or a background unicast. Then the same showcase with a corrupted
tail at one node must exit 1 (a check failed) and mark the run FAIL. Exit 1 naming the first
difference."""
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_svg  # noqa: E402

# The runs the configuration asks for: K = 16 / 4 = 4 for a network outside the demo table;
# rd is a broadcast algorithm, so it runs the broadcast alone.
EXPECTED = sorted([("dual-path", "multicast K=4"), ("dual-path", "broadcast"), ("vh", "multicast K=4"),
                   ("vh", "broadcast"), ("rd", "broadcast")])
# The mix: the algorithms asked for that the VC-class plan proves deadlock-free together, one
# multicast each, and 16 * 1 / 2 = 8 background unicasts.
MIXED_ALGORITHMS = {"dual-path", "vh", "rd", "unicast"}


def check_mix(out, row):
    """'' when the mixed row's request file holds the requests its row counts."""
    count = re.fullmatch(r"(\d+) requests", row["request"])
    if not count or not row["request_file"]:
        return f"mixed row {row}"
    with open(os.path.join(out, row["request_file"])) as f:
        entries = json.load(f)
    if len(entries) != int(count.group(1)):
        return f"{row['request_file']} holds {len(entries)} requests, the row {count.group(1)}"
    algorithms = {e["algorithm"] for e in entries}
    if not algorithms <= MIXED_ALGORITHMS or "unicast" not in algorithms or len(algorithms) < 3:
        return f"{row['request_file']} mixes {sorted(algorithms)}"
    if sum(1 for e in entries if e["algorithm"] == "unicast" and len(e["dests"]) == 1) < 8:
        return f"{row['request_file']} has fewer than 8 background unicasts"
    return ""


def showcase(wormcast, out, extra):
    command = [wormcast, "showcase", "-t", "mesh:4x4", "-a", "dual-path,vh,rd", "--multicasts", "1", "--alpha",
               "20", "--gamma", "10", "--out", out] + extra
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def main(wormcast, out):
    run = showcase(wormcast, out, [])
    if run.returncode != 0:
        return f"showcase exited {run.returncode}:\n{run.stdout}{run.stderr}"
    if "6 runs, 6 passed the check, 0 failed" not in run.stdout:
        return f"showcase summary line missing:\n{run.stdout}"
    with open(os.path.join(out, "summary.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    mixed = [r for r in rows if r["algorithm"] == "mixed"]
    single = [r for r in rows if r["algorithm"] != "mixed"]
    got = sorted((r["algorithm"], r["request"]) for r in single)
    if got != EXPECTED or len(mixed) != 1:
        return f"summary.csv runs {got} and {len(mixed)} mixes, expected {EXPECTED} and one mix"
    for r in rows:
        if r["check"] != "pass" or r["topology"] != "mesh:4x4":
            return f"summary.csv row {r}"
    for r in single:
        problem = check_svg.check(os.path.join(out, r["drawing"]), None, int(r["destinations"]))
        if problem:
            return problem
    problem = check_mix(out, mixed[0])
    if problem:
        return problem
    if "rerun the mesh:4x4 mix: wormcast run -t mesh:4x4 --requests " not in run.stdout:
        return f"showcase does not say how to rerun the mix:\n{run.stdout}"
    with open(os.path.join(out, "summary.md")) as f:
        markdown = f.read()
    if markdown.count("| mesh:4x4 |") != 6:
        return "summary.md does not hold the 6 runs"
    # Fault injection: every copy ejected at node 5 ((1,1)) has a corrupted tail; the broadcasts
    # (from (2,3) with the default seed) reach it, so the checks must fail and the exit code be 1.
    faulty = showcase(wormcast, out + "_fault", ["--corrupt-tail-at", "5"])
    if faulty.returncode != 1 or "FAIL" not in faulty.stdout:
        return f"a corrupted run passed (exit {faulty.returncode}):\n{faulty.stdout}{faulty.stderr}"
    print(run.stdout)
    return ""


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check_showcase.py WORMCAST OUT")
    problem = main(sys.argv[1], sys.argv[2])
    if problem:
        sys.exit(problem)
