#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_showcase.py WORMCAST OUT: `wormcast showcase` in a reduced form (mesh:4x4; dual-path, vh and
rd; one random multicast each plus a broadcast) exits 0 with every check passing, writes
summary.md, and summary.csv with exactly the expected runs, each with a drawing that passes
check_svg.py. Then the same showcase with a corrupted tail at one node must exit 1 (a check
failed) and mark the run FAIL. Exit 1 naming the first difference."""
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_svg  # noqa: E402

# The runs the configuration asks for: K = 16 / 4 = 4 for a network outside the demo table;
# rd is a broadcast algorithm, so it runs the broadcast alone.
EXPECTED = sorted([("dual-path", "multicast K=4"), ("dual-path", "broadcast"), ("vh", "multicast K=4"),
                   ("vh", "broadcast"), ("rd", "broadcast")])


def showcase(wormcast, out, extra):
    command = [wormcast, "showcase", "-t", "mesh:4x4", "-a", "dual-path,vh,rd", "--multicasts", "1", "--alpha",
               "20", "--gamma", "10", "--out", out] + extra
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def main(wormcast, out):
    run = showcase(wormcast, out, [])
    if run.returncode != 0:
        return f"showcase exited {run.returncode}:\n{run.stdout}{run.stderr}"
    if "5 runs, 5 passed the check, 0 failed" not in run.stdout:
        return f"showcase summary line missing:\n{run.stdout}"
    with open(os.path.join(out, "summary.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    got = sorted((r["algorithm"], r["request"]) for r in rows)
    if got != EXPECTED:
        return f"summary.csv runs {got}, expected {EXPECTED}"
    for r in rows:
        if r["check"] != "pass" or r["topology"] != "mesh:4x4":
            return f"summary.csv row {r}"
        problem = check_svg.check(os.path.join(out, r["drawing"]), None, int(r["destinations"]))
        if problem:
            return problem
    with open(os.path.join(out, "summary.md")) as f:
        markdown = f.read()
    if markdown.count("| mesh:4x4 |") != 5:
        return "summary.md does not hold the 5 runs"
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
