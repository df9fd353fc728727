#!/usr/bin/env python3
"""Regenerate the PROTEST sample corpus excerpt in this directory.

Usage:  python3 make_excerpt.py [CORPUS_DIR]

CORPUS_DIR defaults to /work/shared/data/discomt-news-en-fr (the DiscoMT news
test set: English source, human French reference, one MT output, alignments and
doc-boundaries).  The script copies the documents listed in CHOSEN_DOCS line by
line (byte for byte) and appends our own hand-made document, kept in the extra.*
files next to this script, as the last document of the excerpt.

Outputs (all in this directory, one line per sentence, identical line counts):
  news.en        English source
  news.ref.fr    human French reference
  news.mt.fr     MT output
  news.ref.alig  source <-> reference alignment (Moses i-j, 0-based)
  news.mt.alig   source <-> MT alignment
  news.docs      0-based first sentence of each document in the excerpt
"""
import os
import sys

DEFAULT_CORPUS = "/work/shared/data/discomt-news-en-fr"

# Chosen original documents: 0-based indices in the order of doc-boundaries.
CHOSEN_DOCS = [4, 9, 33, 45, 58, 94, 125, 126]

# (output file, corpus file, extra file)
STREAMS = [
    ("news.en", "pronoun-test.tok.en", "extra.en"),
    ("news.ref.fr", "pronoun-test.tok.fr", "extra.ref.fr"),
    ("news.mt.fr", "mt-output.fr", "extra.mt.fr"),
    ("news.ref.alig", "pronoun-test.tok.en-fr.alig", "extra.ref.alig"),
    ("news.mt.alig", "mt-output.en-fr.alig", "extra.mt.alig"),
]

HERE = os.path.dirname(os.path.abspath(__file__))


def read_lines(path):
    """Lines of a file as bytes, without their newline characters."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the final newline does not start a new line
    return lines


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_CORPUS
    starts = [int(x) for x in read_lines(os.path.join(corpus, "doc-boundaries")) if x.strip()]
    n_sent = len(read_lines(os.path.join(corpus, "pronoun-test.tok.en")))
    ends = starts[1:] + [n_sent]

    extra_len = len(read_lines(os.path.join(HERE, "extra.en")))
    doc_starts = []
    pos = 0
    for d in CHOSEN_DOCS:
        doc_starts.append(pos)
        pos += ends[d] - starts[d]
    doc_starts.append(pos)  # our own document
    total = pos + extra_len

    for out_name, corpus_name, extra_name in STREAMS:
        lines = read_lines(os.path.join(corpus, corpus_name))
        # mt-output.en-fr.alig has one extra trailing empty line: drop it.
        if len(lines) == n_sent + 1 and lines[-1].strip() == b"":
            lines.pop()
        if len(lines) != n_sent:
            sys.exit(f"{corpus_name}: {len(lines)} lines, expected {n_sent}")
        out = []
        for d in CHOSEN_DOCS:
            out.extend(lines[starts[d]:ends[d]])
        extra = read_lines(os.path.join(HERE, extra_name))
        if len(extra) != extra_len:
            sys.exit(f"{extra_name}: {len(extra)} lines, expected {extra_len}")
        out.extend(extra)
        assert len(out) == total
        with open(os.path.join(HERE, out_name), "wb") as f:
            f.write(b"".join(line + b"\n" for line in out))

    with open(os.path.join(HERE, "news.docs"), "w") as f:
        f.write("".join(f"{s}\n" for s in doc_starts))

    print(f"{len(doc_starts)} documents, {total} sentences; starts: {doc_starts}")


if __name__ == "__main__":
    main()
