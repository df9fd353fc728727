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
  sentence off;
- llm: what an LLM asked for a document-level translation gives: the edited sentences in
  paragraphs (the headline alone, then two to five sentences each), 3.5 % of the sentences run
  into the next as one sentence (the full stop made a comma), 1.8 % of the longer ones made two
  sentences, one sentence dropped, and a preamble before the first document. OUT_DIR/llm.fr has
  the documents separated by an empty line and a paragraph per line; OUT_DIR/llm/ has one file per
  document (001.txt, …) with the paragraphs separated by empty lines, as LLM pipelines write them.

The variants are made from SEED (1 unless given); scripts/document-level-figures measures seed 1,
which is held out: the cues' weights are tried on other seeds.
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


PREAMBLE = "Voici la traduction du document :"


def lowered(sentence, small):
    """The sentence with its first word written small when the text usually writes it so."""
    first, _, rest = sentence.partition(" ")
    low = first.lower()
    if first != low and first[1:] == first[1:].lower() and small.get(low, 0) > small.get(first, 0):
        return " ".join([low, rest]) if rest else low
    return sentence


def capitalised(token):
    return token[:1].upper() + token[1:]


def llm_sentences(doc, rng, small, dropped):
    """One document's sentences as an LLM might give them, and the right text of each.

    Returns the output's sentences (each a list: the paragraphs are made later) and the expected
    translation of each source sentence."""
    expected = list(doc)
    out = []
    i = 0
    while i < len(doc):
        s = doc[i]
        if i in dropped:
            expected[i] = ""
            i += 1
            continue
        tokens = s.split(" ")
        if i + 1 < len(doc) and i + 1 not in dropped and tokens[-1] == "." and len(tokens) > 2 and rng.random() < 0.035:
            first = " ".join(tokens[:-1] + [","])
            second = lowered(doc[i + 1], small)
            expected[i], expected[i + 1] = first, second
            out.append(first + " " + second)
            i += 2
            continue
        if len(tokens) >= 10 and rng.random() < 0.018:
            commas = [k for k in range(3, len(tokens) - 3) if tokens[k] == ","]
            if commas:
                k = rng.choice(commas)
                pieces = [tokens[:k] + ["."], [capitalised(tokens[k + 1])] + tokens[k + 2 :]]
            else:
                k = len(tokens) // 2
                pieces = [tokens[:k] + ["."], [capitalised(tokens[k])] + tokens[k + 1 :]]
            expected[i] = " ".join(pieces[0] + pieces[1])
            out += [" ".join(p) for p in pieces]
            i += 1
            continue
        out.append(s)
        i += 1
    return out, expected


def paragraphs(sentences, rng):
    """The headline alone, then paragraphs of two to five sentences."""
    out = sentences[:1]
    i = 1
    while i < len(sentences):
        n = rng.randint(2, 5)
        out.append(" ".join(sentences[i : i + n]))
        i += n
    return out


def llm(docs, out, seed):
    rng = random.Random(seed + 2)
    small = {}
    for doc in docs:
        for s in doc:
            for t in s.split(" "):
                small[t] = small.get(t, 0) + 1
    starts = [sum(len(d) for d in docs[:k]) for k in range(len(docs))]
    # One sentence dropped, not a document's first (its headline).
    candidates = [(k, i) for k, doc in enumerate(docs) for i in range(1, len(doc))]
    k_dropped, i_dropped = rng.choice(candidates)
    files, expected = [], []
    for k, doc in enumerate(docs):
        sentences, right = llm_sentences(doc, rng, small, {i_dropped} if k == k_dropped else set())
        parts = paragraphs(sentences, rng)
        if k == 0:
            parts.insert(0, PREAMBLE)
        files.append(parts)
        expected += right
    lines = []
    for k, parts in enumerate(files):
        if k > 0:
            lines.append("")
        lines += parts
    write(out / "llm.fr", lines)
    write(out / "llm.expected", expected)
    write(out / "llm.docs.fr", [" ".join(parts) for parts in files])
    folder = out / "llm-files"
    folder.mkdir(exist_ok=True)
    for k, parts in enumerate(files):
        with open(folder / f"doc{k + 1}.txt", "w", encoding="utf-8") as f:
            f.write("\n\n".join(parts) + "\n")
    write(out / "llm-files.expected", expected)
    print(f"llm: sentence {starts[k_dropped] + i_dropped + 1} dropped", file=sys.stderr)


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
    llm(changed, out, seed)


if __name__ == "__main__":
    main()
