#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_svg.py FILE.svg WORMS DESTINATIONS: the drawing of `wormcast run/plan --svg` is well-formed
XML (Python's parser), an SVG document, and holds one group per worm (WORMS of them, or at least one
for `any`; each with at least one link drawn and an arrow on it), one source marker and DESTINATIONS
destination markers. Exit 1 naming the first difference."""
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def check(path, worms, destinations):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as error:
        return f"{path}: not well-formed XML: {error}"
    if root.tag != SVG + "svg":
        return f"{path}: root element is {root.tag}, not an SVG <svg>"
    groups = [g for g in root.iter(SVG + "g") if g.get("class") == "worm"]
    if (worms is None and not groups) or (worms is not None and len(groups) != worms):
        return f"{path}: {len(groups)} worm groups, expected {worms}"
    for g in groups:
        links = g.findall(SVG + "path")
        if not links:
            return f"{path}: worm group {g.get('id')} draws no link"
        if not any(p.get("marker-end", "").startswith("url(#arrow") for p in links):
            return f"{path}: worm group {g.get('id')} has no arrow"
    sources = [e for e in root.iter() if e.get("class") == "source"]
    if len(sources) != 1:
        return f"{path}: {len(sources)} source markers, expected 1"
    marked = [e for e in root.iter() if e.get("class") == "destination"]
    if len(marked) != destinations:
        return f"{path}: {len(marked)} destination markers, expected {destinations}"
    return ""


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: check_svg.py FILE.svg WORMS DESTINATIONS")
    problem = check(sys.argv[1], None if sys.argv[2] == "any" else int(sys.argv[2]), int(sys.argv[3]))
    if problem:
        sys.exit(problem)
    print(f"{sys.argv[1]}: well-formed SVG, {sys.argv[2]} worms, 1 source, {sys.argv[3]} destinations")
