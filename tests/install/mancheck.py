#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of the man pages for tests/install/run.sh (one process for all of
them: python starts slowly on a loaded machine).

  mancheck.py batch < CHECKS
      Each line of CHECKS is NAME, MODE, FILE and ITEMS, separated by tabs
      (ITEMS by blanks); one line `PASS install/NAME' or
      `FAIL install/NAME: why' is printed for each. Exit 1 if any failed.
      MODE is one of:
        options   each ITEM appears in the page's source (FILE) as an
                  option, not inside a longer word
        commands  each ITEM has an entry of its own: a tag `.TP' `.B ITEM'
                  (or `.BI "ITEM ...')
        bold      each ITEM is set in bold somewhere in the page as grotty
                  -c renders it (FILE)
        section   the section named by the first ITEM (`EXIT_STATUS' for
                  `EXIT STATUS') exists in the rendered page (FILE) and
                  holds each other ITEM

  mancheck.py examples PAGE.man DIR
      Write the examples marked `.\\" checked example: KIND' to
      DIR/N-KIND.ward (fragments get a `ward 1; use groups;' header) and
      print how many there are.
"""
import re
import sys


def source_text(path):
    """The page's source with troff escapes that split words removed."""
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f.read().split("\n") if not l.startswith('.\\"')]
    text = "\n".join(lines)
    text = re.sub(r"\\f[BIRP]|\\f\(..|\\c|\\&|\\\||\\\^", "", text)
    return text.replace("\\-", "-")


def unescape_example(line):
    line = re.sub(r"\\f[BIRP]|\\&", "", line)
    line = line.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
    return line.replace("\\e", "\\")


def bold_words(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    words = set()
    # grotty -c: a bold character is "c\bc"; runs of them form bold text
    for m in re.finditer(r"(?:(.)\x08\1)+", text):
        s = re.sub(r"(.)\x08\1", r"\1", m.group(0))
        for w in re.findall(r"[@A-Za-z0-9_][A-Za-z0-9_.-]*", s):
            words.add(w.rstrip(".-"))
    return words


def plain(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    text = re.sub(r".\x08", "", text)
    # grotty's hyphen and minus look like "-" to a reader
    return text.replace("\u2010", "-").replace("\u2212", "-")


def section(text, name):
    m = re.search(r"^" + re.escape(name) + r"\n(.*?)(?=^\S|\Z)", text, re.M | re.S)
    return m.group(1) if m else None


def missing_items(mode, page, items):
    if mode == "options":
        text = source_text(page)
        pats = [(opt, r"(^|[^A-Za-z0-9-])" + re.escape(opt) + r"($|[^A-Za-z0-9-])")
                for opt in items]
        return [o for o, pat in pats if not re.search(pat, text, re.M)]
    if mode == "commands":
        text = source_text(page)
        return [c for c in items
                if not re.search(r'^\.TP\n\.B[IR]? +"?' + re.escape(c) + r'( |"|$)',
                                 text, re.M)]
    if mode == "bold":
        words = bold_words(page)
        return [w for w in items if w not in words]
    if mode == "section":
        name = items[0].replace("_", " ")
        body = section(plain(page), name)
        if body is None:
            return ["the section " + name]
        body = " ".join(body.split())
        return [t for t in items[1:] if t not in body]
    raise ValueError("unknown mode " + mode)


def examples(page, outdir):
    n = 0
    kind = None
    out = None
    with open(page, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            m = re.match(r'^\.\\" checked example: (\S+)', line)
            if m:
                kind = m.group(1)
                continue
            if kind and line == ".EX":
                n += 1
                out = open("%s/%d-%s.ward" % (outdir, n, kind), "w")
                if kind == "fragment":
                    out.write("ward 1;\nuse groups;\n")
                continue
            if out and line == ".EE":
                out.close()
                out, kind = None, None
                continue
            if out:
                out.write(unescape_example(line) + "\n")
    return n


def main(argv):
    if len(argv) == 4 and argv[1] == "examples":
        print(examples(argv[2], argv[3]))
        return 0
    if len(argv) != 2 or argv[1] != "batch":
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for line in sys.stdin.read().split("\n"):
        if not line.strip():
            continue
        fields = line.split("\t")
        name, mode, page = fields[0], fields[1], fields[2]
        items = fields[3].split() if len(fields) > 3 else []
        try:
            miss = missing_items(mode, page, items)
        except (OSError, ValueError) as e:
            miss = [str(e)]
        if miss:
            failed += 1
            print("FAIL install/%s: missing %s" % (name, " ".join(miss)))
        else:
            print("PASS install/%s" % name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
