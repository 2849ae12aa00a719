#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every section that a source comment or a doc cites by title exists in the doc it names. Prints
one line per broken reference (file:line: doc: the title) and exits 1; exits 0 when every cited
title is found, 2 on bad arguments.

  verif/check_doc_refs.py [--list] [<source root>]

The source root defaults to the tree this script is in; --list also prints every title checked.
What counts as a reference, and what as a section: docs/verification.md, "Doc references"."""
import bisect
import os
import re
import sys

# Where references are looked for: every text file under these, and these files.
ROOTS = ("rtl", "fpga", "firmware", "model", "sim", "verif", "bench", "scripts", "cmake", "docs",
         "README.md", "CMakeLists.txt", "Makefile")
# A line's leading comment marker: // /// //! # * -- ;
COMMENT = re.compile(r"\s*(?:///?!?|#+|\*+|--|;+)?\s?")
# A quoted title: "Title", or \"Title\" inside a string literal.
TITLE = r'(?:"([^"\\]{1,120})"|\\"([^"\\]{1,120})\\")'
TITLES = TITLE + r"(?:(?:, and |, | and | or )" + TITLE + r")*"
# The doc path that ends just before a ".md": docs/rtl.md, docs/results/x.md, rtl.md.
DOC_NAME = re.compile(r"(?<![\w/.-])((?:docs/)?[\w-]+(?:/[\w-]+)*)\Z")
# What follows the ".md": `, 's, then ", ", ": ", " " or "(", then the titles.
AFTER_DOC = re.compile(r"`?(?:'s)?(?:, |: | )?\(?(" + TITLES + ")")
# In a doc, titles of the same doc: ("Title"), ("A" and "B", below), "Title" above.
LOCAL_PAREN = re.compile(r"(?<![\w.`'])\((" + TITLES + r")(?:,? (?:below|above))?\)")
LOCAL_NEAR = re.compile(r"(?<![\w.`'(])(" + TITLE + r"),? (?:below|above)\b")
ONE_TITLE = re.compile(TITLE)
HEADING = re.compile(r"#{1,6}\s+(.*?)\s*#*\s*$")
LABEL = re.compile(r"\s*(?:[-*+] |\d+\. )?\*\*([^*]+?)\*\*")


def titles_in(span):
    return [plain or escaped for plain, escaped in ONE_TITLE.findall(span)]


def normalize(title):
    return re.sub(r"\s+", " ", title.replace("`", "")).strip().rstrip(".,:;").rstrip()


def sections(path):
    """The titles a markdown file's headings and labelled paragraphs go by (normalized): each whole,
    without a trailing parenthetical, and up to its first ": "."""
    found, fenced = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and (m := HEADING.match(line) or LABEL.match(line)):
                title = normalize(m.group(1))
                found.update((title, normalize(re.sub(r"\s*\([^()]*\)$", "", title)),
                              normalize(title.split(": ", 1)[0])))
    return found


def joined(path):
    """The file as one line, and where each of its lines starts in it: each line stripped (and in a
    file other than markdown, its leading comment marker dropped), two string literals that end and
    start consecutive lines (`"... see the doc, "` then `"\\"Title\\""`) glued into one. None for a file
    that names no .md, or is no UTF-8 text."""
    with open(path, "rb") as f:
        data = f.read()
    markdown = path.endswith(".md")
    if b"\0" in data or (b".md" not in data and not markdown):
        return None, None
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None, None
    bodies = [line.strip() if markdown else COMMENT.sub("", line, count=1).strip() for line in lines]
    text, starts, offset = [], [], 0
    for i, body in enumerate(bodies):
        if not markdown and i > 0 and bodies[i - 1].endswith('"') and body.startswith('"'):
            text[-1] = text[-1][:-1]
            offset -= 1
            body = body[1:]
        elif i > 0:
            text.append(" ")
            offset += 1
        starts.append(offset)
        text.append(body)
        offset += len(body)
    return "".join(text), starts


def files(root):
    for name in ROOTS:
        top = os.path.join(root, name)
        if os.path.isfile(top):
            yield top
        for folder, subfolders, names in os.walk(top):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for n in sorted(names):
                yield os.path.join(folder, n)


def references(root, path, rel, text):
    """(offset, doc relative to root, titles) of every reference in `text`, the file at `path`."""
    in_docs = rel.startswith("docs/")
    refs, spans = [], []
    for md in re.finditer(r"\.md\b", text):
        after = AFTER_DOC.match(text, md.end())
        name = DOC_NAME.search(text, max(0, md.start() - 200), md.start()) if after else None
        if not name:
            continue
        doc = name.group(1) + ".md"
        if not doc.startswith("docs/"):
            if not in_docs or not os.path.isfile(os.path.join(os.path.dirname(path), doc)):
                continue  # not a doc of this repository (a doc under docs/ names its siblings bare)
            doc = os.path.relpath(os.path.join(os.path.dirname(path), doc), root).replace(os.sep, "/")
        refs.append((name.start(), doc, titles_in(after.group(1))))
        spans.append((name.start(), after.end()))
    if in_docs and rel.endswith(".md") or rel == "README.md":
        for pattern in (LOCAL_PAREN, LOCAL_NEAR):
            for m in pattern.finditer(text):
                if any(a <= m.start() < b for a, b in spans):
                    continue  # the titles of a doc path's reference
                titles = [t for t in titles_in(m.group(1)) if re.match(r"[A-Z`]", t)]
                if titles:
                    refs.append((m.start(), rel, titles))
                    spans.append(m.span())
    return sorted(refs)


def main(argv):
    args = [a for a in argv[1:] if a != "--list"]
    if len(args) > 1 or (args and args[0].startswith("-")):
        print(f"check_doc_refs: bad arguments '{' '.join(argv[1:])}' (valid: [--list] [<source root>])",
              file=sys.stderr)
        return 2
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(root, "docs")):
        print(f"check_doc_refs: '{root}' is no source root (valid: a folder holding docs/)", file=sys.stderr)
        return 2
    cache, broken, checked = {}, [], 0
    for path in files(root):
        text, starts = joined(path)
        if text is None:
            continue
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        for offset, doc, titles in references(root, path, rel, text):
            where = f"{rel}:{bisect.bisect_right(starts, offset)}"  # 1-based line
            if doc not in cache:
                doc_path = os.path.join(root, doc)
                cache[doc] = sections(doc_path) if os.path.isfile(doc_path) else None
            if cache[doc] is None:
                broken.append(f"{where}: {doc}: no such doc")
                continue
            for title in titles:
                checked += 1
                if "--list" in argv:
                    print(f'{where}: {doc}: "{title}"')
                if normalize(title) not in cache[doc]:
                    broken.append(f'{where}: {doc}: no section "{title}"')
    print("\n".join(broken), end="\n" if broken else "")
    print(f"check_doc_refs: {checked} cited titles, {len(broken)} broken", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
