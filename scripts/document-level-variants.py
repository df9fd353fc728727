#!/usr/bin/env python3
"""Variants of the DiscoMT news corpus's MT output in the layouts of document-level systems, for
scripts/document-level-figures (docs/alignment.md, "Document-level output").

    document-level-variants.py CORPUS_DIR OUT_DIR [SEED]

Writes, for each variant NAME, OUT_DIR/NAME.fr (the output as a system would give it) and
OUT_DIR/NAME.expected (the right translation of each source sentence, one per line), and
OUT_DIR/NAME.docs.fr (the same text one document per line, with OUT_DIR/docids: one document id per
source sentence, for mweralign's document-aware alignment). The variants:

- given: the MT output as it is, one line per sentence;
- single-lines: each document as one line, documents separated by an empty line;
- merges-splits: documents separated by an empty line, each sentence per line but with 15 % of
  the sentence boundaries removed (two sentences on one line) and 15 % of the lines split in two
  at a random word boundary;
- single-lines-edited, merges-splits-edited: the same after a quarter of the sentences were
  lightly edited (one word dropped or repeated);
- cancelling: one line per sentence with no empty lines, but in 40 % of the documents two
  sentences share a line and a later line is split in two, so that every line in between is one
  sentence off.
"""

import random
import sys
from pathlib import Path


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def documents(lines, starts):
    bounds = starts + [len(lines)]
    return [lines[bounds[k] : bounds[k + 1]] for k in range(len(starts))]


def edited(sentences, rng):
    """A quarter of the sentences with one word (a token with a letter) dropped or repeated."""
    out = []
    for s in sentences:
        tokens = s.split(" ")
        words = [i for i, t in enumerate(tokens) if any(c.isalpha() for c in t)]
        if rng.random() < 0.25 and len(words) > 1:
            i = rng.choice(words)
            if rng.random() < 0.5:
                del tokens[i]
            else:
                tokens.insert(i, tokens[i])
        out.append(" ".join(tokens))
    return out


def merged_and_split(sentences, rng):
    """Lines of one document: some sentence boundaries removed, some lines split in two."""
    lines = []
    for i, s in enumerate(sentences):
        if i > 0 and rng.random() < 0.15:
            lines[-1] += " " + s
        else:
            lines.append(s)
    out = []
    for line in lines:
        tokens = line.split(" ")
        if len(tokens) > 3 and rng.random() < 0.15:
            cut = rng.randrange(1, len(tokens))
            out += [" ".join(tokens[:cut]), " ".join(tokens[cut:])]
        else:
            out.append(line)
    return out


def cancelling(sentences, rng):
    """Lines of one document, as many as sentences: a merge and a later split, or nothing."""
    lines = list(sentences)
    if len(lines) < 4 or rng.random() >= 0.4:
        return lines
    k = rng.randrange(0, len(lines) - 3)
    m = rng.randrange(k + 2, len(lines))
    tokens = lines[m].split(" ")
    if len(tokens) < 2:
        return lines
    cut = rng.randrange(1, len(tokens))
    lines[m : m + 1] = [" ".join(tokens[:cut]), " ".join(tokens[cut:])]
    lines[k : k + 2] = [lines[k] + " " + lines[k + 1]]
    return lines


def write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def main():
    corpus, out = Path(sys.argv[1]), Path(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    out.mkdir(parents=True, exist_ok=True)
    mt = read(corpus / "mt-output.fr")
    starts = [int(x) for x in read(corpus / "doc-boundaries")]
    plain = documents(mt, starts)
    changed = documents(edited(mt, random.Random(seed)), starts)
    write(out / "docids", [f"doc{k}" for k, doc in enumerate(plain) for _ in doc])

    def variant(name, docs, layout, separated=True):
        rng = random.Random(seed + 1)
        laid_out = [layout(doc, rng) for doc in docs]
        lines = []
        for k, doc_lines in enumerate(laid_out):
            if separated and k > 0:
                lines.append("")
            lines += doc_lines
        write(out / f"{name}.fr", lines)
        write(out / f"{name}.expected", [s for doc in docs for s in doc])
        write(out / f"{name}.docs.fr", [" ".join(doc_lines) for doc_lines in laid_out])

    variant("given", plain, lambda doc, rng: doc, separated=False)
    variant("single-lines", plain, lambda doc, rng: [" ".join(doc)])
    variant("merges-splits", plain, merged_and_split)
    variant("single-lines-edited", changed, lambda doc, rng: [" ".join(doc)])
    variant("merges-splits-edited", changed, merged_and_split)
    variant("cancelling", plain, cancelling, separated=False)


if __name__ == "__main__":
    main()
