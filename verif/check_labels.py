#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every test ctest lists in a build folder, the discovered GoogleTest cases included, carries one of
the part labels (cmake/test_labels.cmake), so `ctest -L <part>` runs each test of its part. Prints
the count per label; names each test without a part label and exits 1.

  verif/check_labels.py <ctest> <build folder>"""
import collections
import json
import subprocess
import sys

PARTS = ("model", "firmware", "rtl", "system", "fpga")


def main():
    ctest, build = sys.argv[1:3]
    listing = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"], check=True,
                             capture_output=True, text=True).stdout
    tests = json.loads(listing)["tests"]
    per_label = collections.Counter()
    unlabelled = []
    for test in tests:
        labels = next((p["value"] for p in test.get("properties", []) if p["name"] == "LABELS"), [])
        per_label.update(labels)
        if not any(part in labels for part in PARTS):
            unlabelled.append(f"{test['name']} (labels: {', '.join(labels) or 'none'})")
    print(f"{len(tests)} tests; per label: " + ", ".join(f"{l} {n}" for l, n in sorted(per_label.items())))
    if unlabelled:
        print(f"tests without a part label ({', '.join(PARTS)}):\n  " + "\n  ".join(unlabelled))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
