#!/usr/bin/env python3
"""Average sentence length of Markdown prose, in words: what issue 38 bounds (at most 25 in
README, ARCHITECTURE, LOADER and LIBRARY). Code blocks, indented blocks, tables, headings and
HTML comments are not prose; inline code counts as one word. A paragraph or list item ends a
sentence even without a full stop.

    scripts/docs/sentence_length.py FILE... [--longest N]

Prints each file's count, average and longest sentence; with --longest, the N longest sentences.
"""
import re
import sys


def blocks(text):
    """The prose paragraphs and list items of ``text``."""
    out, current, fence = [], [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
            continue
        skip = (
            fence
            or (line.startswith("    ") and not re.match(r"\s*([-*]|\d+\.)\s", line) and not current)
            or stripped.startswith(("|", "#", "<!--"))
        )
        starts_item = re.match(r"\s*([-*]|\d+\.)\s", line) is not None
        if skip or not stripped or starts_item:
            if current:
                out.append(" ".join(current))
                current = []
            if skip or not stripped:
                continue
        current.append(stripped)
    if current:
        out.append(" ".join(current))
    return out


def sentences(text):
    found = []
    for block in blocks(text):
        block = re.sub(r"`[^`]*`", "X", block)
        block = re.sub(r"^([-*]|\d+\.)\s+", "", block)
        for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(\"*X])", block):
            if len(s.split()) >= 3:
                found.append(s)
    return found


def main(argv):
    longest = 0
    if "--longest" in argv:
        i = argv.index("--longest")
        longest = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    for path in argv:
        found = sentences(open(path, encoding="utf-8").read())
        words = [len(s.split()) for s in found]
        average = sum(words) / max(1, len(words))
        print(f"{path}: {len(found)} sentences, average {average:.1f} words, longest {max(words, default=0)}")
        for s in sorted(found, key=lambda s: -len(s.split()))[:longest]:
            print(f"  {len(s.split())}: {s[:160]}")


if __name__ == "__main__":
    main(sys.argv[1:])
