#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The decomposition of `make test`'s time from scripts/measure_test_time.sh's folder, as Markdown
on stdout (docs/results/test-time.md).

  scripts/test_time_report.py <measurement folder> <commit>

Reads configure.time, build.time, test.time (/usr/bin/time: wall, user, system seconds), cpu.log
(scripts/cpu_launcher.sh: one line per compile or link) and tests.tsv (scripts/test_cpu_times.py).
The estimate for an idle 2-core machine: the configure step's CPU outside Verilator (serial), plus
for each library's Verilator runs (cmake/verilated_library.cmake runs a library's models two at a
time; each run's CPU from its Mdir's ahead.times) half their CPU or the longest, whichever is more;
half the build's CPU; and the tests' CPU over two cores or the longest test, whichever is more."""
import collections
import csv
import os
import re
import sys

CORES = 2


def read_time(folder, name):
    wall, user, system = (float(x) for x in open(os.path.join(folder, f"{name}.time")).read().split()[-3:])
    return wall, user + system


def verilator_runs(build):
    """{library: [CPU s of each model's Verilator run]} from the ahead.times files under build/."""
    runs = collections.defaultdict(list)
    for root, _, files in os.walk(build):
        if "ahead.times" not in files:
            continue
        lines = open(os.path.join(root, "ahead.times")).read().split("\n")
        if len(lines) < 2 or len(lines[1].split()) != 2:
            continue
        seconds = 0.0
        for field in lines[1].split():  # the children's user and system time, as 1m2.345s
            minutes, _, rest = field.partition("m")
            seconds += float(minutes) * 60 + float(rest.rstrip("s"))
        match = re.search(r"CMakeFiles/([^/]+)\.dir/[^/]+\.dir$", root)
        runs[match.group(1) if match else "?"].append(seconds)
    return runs


def library(output):
    """The CMake target a compile belongs to, or 'link <name>' for a link."""
    match = re.search(r"CMakeFiles/([^/]+)\.dir/", output)
    if match:
        return match.group(1)
    return "link " + os.path.basename(output)


def main():
    if len(sys.argv) != 3:
        print("usage: test_time_report.py <measurement folder> <commit>", file=sys.stderr)
        return 2
    folder, commit = sys.argv[1:]
    configure_wall, configure_cpu = read_time(folder, "configure")
    runs = verilator_runs(os.path.join(folder, "build"))
    verilator_cpu = sum(sum(r) for r in runs.values())
    verilator_count = sum(len(r) for r in runs.values())
    configure_estimate = configure_cpu - verilator_cpu + sum(max(sum(r) / CORES, max(r)) for r in runs.values())
    build_wall, build_cpu = read_time(folder, "build")
    units = []
    for line in open(os.path.join(folder, "cpu.log")):
        cpu, _, _, output = line.split(maxsplit=3)
        units.append((float(cpu), output.strip()))
    launched = sum(cpu for cpu, _ in units)
    per_library = collections.Counter()
    for cpu, output in units:
        per_library["links" if library(output).startswith("link ") else library(output)] += cpu
    tests = list(csv.DictReader(open(os.path.join(folder, "tests.tsv")), delimiter="\t"))
    test_cpu = sum(float(t["cpu_s"]) for t in tests)
    test_wall_sum = sum(float(t["wall_s"]) for t in tests)
    longest = max(tests, key=lambda t: float(t["cpu_s"]))
    per_label = collections.Counter()
    for t in tests:
        for label in t["labels"].split(","):
            per_label[label or "(none)"] += float(t["cpu_s"])
    failed = [t["test"] for t in tests if t["passed"] != "1"]
    test_estimate = max(test_cpu / CORES, float(longest["cpu_s"]))
    total = configure_estimate + build_cpu / CORES + test_estimate

    out = []
    out.append("# Where make test's time goes")
    out.append("")
    out.append(f"Written by `scripts/measure_test_time.sh` at commit {commit}: a fresh build folder of the "
               "default preset, no ccache, every compile and link timed by `scripts/cpu_launcher.sh`, "
               "every test by `scripts/test_cpu_times.py`. Seconds of CPU (user + system), which a busy "
               "machine inflates far less than wall time.")
    out.append("")
    out.append("| step | CPU s | wall s here | on an idle 2-core machine |")
    out.append("| --- | ---: | ---: | ---: |")
    out.append(f"| configure ({verilator_count} Verilator runs, {verilator_cpu:.0f} s, two at a time) | "
               f"{configure_cpu:.0f} | {configure_wall:.0f} | {configure_estimate:.0f} |")
    out.append(f"| build (compiles {launched:.0f} s, the rest CMake, make, Verilator reruns, test discovery) | "
               f"{build_cpu:.0f} | {build_wall:.0f} | {build_cpu / CORES:.0f} |")
    out.append(f"| tests ({len(tests)}; the longest {longest['test']}, {float(longest['cpu_s']):.0f} s) | "
               f"{test_cpu:.0f} | {read_time(folder, 'test')[0]:.0f} | {test_estimate:.0f} |")
    out.append(f"| **make test** (without installing packages) | **{configure_cpu + build_cpu + test_cpu:.0f}** | "
               f"| **{total:.0f} s = {total / 60:.1f} min** |")
    out.append("")
    if failed:
        out.append(f"Failed in this run: {', '.join(failed)}.")
        out.append("")
    out.append("The build per CMake target (compiles; links together):")
    out.append("")
    out.append("| target | CPU s | share of the compiles |")
    out.append("| --- | ---: | ---: |")
    for name, cpu in per_library.most_common(15):
        out.append(f"| {name} | {cpu:.0f} | {100 * cpu / launched:.0f} % |")
    rest = launched - sum(cpu for _, cpu in per_library.most_common(15))
    out.append(f"| the other {max(0, len(per_library) - 15)} | {rest:.0f} | {100 * rest / launched:.0f} % |")
    out.append("")
    out.append("The longest translation units:")
    out.append("")
    out.append("| file | CPU s |")
    out.append("| --- | ---: |")
    for cpu, output in sorted(units, reverse=True)[:12]:
        out.append(f"| {library(output)}: {os.path.basename(output)} | {cpu:.1f} |")
    out.append("")
    out.append("The tests per label (a test with two labels counts in both):")
    out.append("")
    out.append("| label | CPU s |")
    out.append("| --- | ---: |")
    for label, cpu in sorted(per_label.items(), key=lambda x: -x[1]):
        out.append(f"| {label} | {cpu:.0f} |")
    out.append("")
    out.append("The longest tests:")
    out.append("")
    out.append("| test | labels | CPU s | wall s here |")
    out.append("| --- | --- | ---: | ---: |")
    for t in sorted(tests, key=lambda t: -float(t["cpu_s"]))[:20]:
        out.append(f"| {t['test']} | {t['labels']} | {float(t['cpu_s']):.1f} | {float(t['wall_s']):.1f} |")
    out.append("")
    out.append(f"Wall time of the tests here, one after the other: {test_wall_sum:.0f} s.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
