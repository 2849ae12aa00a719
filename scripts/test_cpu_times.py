#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a build folder's ctest tests and records each one's CPU time (user + system of the test and
everything it waited for), which a busy machine inflates far less than wall time.

  scripts/test_cpu_times.py <build folder> <out.tsv> [-j N] [-L label] [-R regex]

Writes one row per test: name, labels, passed (1/0), CPU seconds, wall seconds. Pass or fail
follows ctest's rules for the properties the suite uses (exit status, PASS_REGULAR_EXPRESSION,
FAIL_REGULAR_EXPRESSION, WILL_FAIL, SKIP_RETURN_CODE). Exit 1 if a test failed, 2 on bad input.
Used by scripts/measure_test_time.sh (docs/verification.md, "Where the test time goes")."""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time


def props(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def run_one(test):
    p = props(test)
    labels = ",".join(p.get("LABELS", []))
    if "command" not in test:  # ctest lists a test whose executable was not built without one
        return test["name"], labels, False, 0.0, 0.0, "not built"
    env = dict(os.environ)
    env.pop("GTEST_TOTAL_SHARDS", None)
    env.pop("GTEST_SHARD_INDEX", None)
    for assignment in p.get("ENVIRONMENT", []):
        key, _, value = assignment.partition("=")
        env[key] = value
    start = time.monotonic()
    child = subprocess.Popen(test["command"], cwd=p.get("WORKING_DIRECTORY"), env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    # os.wait4 rather than Popen.wait: it returns the child's resource usage.
    chunks = []
    reader = threading.Thread(target=lambda: chunks.append(child.stdout.read()))
    reader.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    reader.join()
    code = child.returncode = os.waitstatus_to_exitcode(status)
    output = b"".join(chunks).decode(errors="replace")
    if "SKIP_RETURN_CODE" in p and code == int(p["SKIP_RETURN_CODE"]):
        passed = True
    elif "PASS_REGULAR_EXPRESSION" in p:
        passed = any(re.search(r, output) for r in p["PASS_REGULAR_EXPRESSION"])
    else:
        passed = code == 0
    if any(re.search(r, output) for r in p.get("FAIL_REGULAR_EXPRESSION", [])):
        passed = False
    if p.get("WILL_FAIL"):
        passed = not passed
    return test["name"], labels, passed, usage.ru_utime + usage.ru_stime, wall, output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("out")
    parser.add_argument("-j", type=int, default=1)
    parser.add_argument("-L", dest="label")
    parser.add_argument("-R", dest="regex")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.build, "CTestTestfile.cmake")):
        print(f"test_cpu_times: '{args.build}' is not a configured build folder (no CTestTestfile.cmake)",
              file=sys.stderr)
        return 2
    select = (["-L", args.label] if args.label else []) + (["-R", args.regex] if args.regex else [])
    listing = subprocess.run(["ctest", "--test-dir", args.build, "--show-only=json-v1", *select],
                             check=True, capture_output=True, text=True).stdout
    tests = json.loads(listing)["tests"]
    # Longest first where a COST is set (as ctest does on a fresh build), so the tail stays short.
    tests.sort(key=lambda t: -float(props(t).get("COST", 0)))
    rows, failed, lock = [], [], threading.Lock()
    queue = list(tests)
    header = "test\tlabels\tpassed\tcpu_s\twall_s\n"
    # Each row as its test ends (a run cut short keeps what it measured), sorted at the end.
    partial = open(args.out, "w")
    partial.write(header)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                test = queue.pop(0)
            name, labels, passed, cpu, wall, output = run_one(test)
            with lock:
                rows.append((name, labels, passed, cpu, wall))
                partial.write(f"{name}\t{labels}\t{int(passed)}\t{cpu:.3f}\t{wall:.3f}\n")
                partial.flush()
                if not passed:
                    failed.append(name)
                    print(f"FAILED {name}\n{output}", flush=True)

    workers = [threading.Thread(target=worker) for _ in range(max(1, args.j))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    partial.close()
    with open(args.out, "w") as out:
        out.write(header)
        for name, labels, passed, cpu, wall in sorted(rows, key=lambda r: -r[3]):
            out.write(f"{name}\t{labels}\t{int(passed)}\t{cpu:.3f}\t{wall:.3f}\n")
    print(f"{len(rows)} tests, {len(failed)} failed; CPU {sum(r[3] for r in rows):.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
