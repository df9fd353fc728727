#!/usr/bin/env bash
# Rebuilds the sample master from the committed inputs (see inputs/README.md), planned for the
# sample batches: task set 1 and its annotators Anna and Ben (see README.md in this folder), so
# that sample.batch-1-anna.json and sample.batch-1-ben.json merge into it as they are.
#   bash sample_batches/rebuild.sh [OUTPUT]
# The fixed id, seed and times make the result byte-identical to the committed
# sample.master.json; tests/sample.rs runs this script and compares.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/sample.master.json}
protest=${PROTEST:-"cargo run --quiet --release --manifest-path $here/../Cargo.toml --"}
in=$here/inputs
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Built beside the scratch batches, then moved into place: OUTPUT is replaced only when all of it worked.
master=$scratch/sample.master.json
$protest import --force \
    --source "$in/news.en" \
    --reference "$in/news.ref.fr" "$in/news.ref.alig" \
    --system mt "$in/news.mt.fr" "$in/news.mt.alig" \
    --documents "$in/news.docs" \
    --suite "$in/sample.suite.tsv" \
    --id sample-news-en-fr-0001 \
    --created 2026-11-25T12:00:00Z \
    --description "Sample PROTEST master: 60 pronoun examples from the DiscoMT news corpus (English-French), reference and one MT system" \
    --output "$master" >/dev/null
# Both translations (reference and MT), all 13 categories: 120 candidates. 30 go to both
# annotators for inter-annotator agreement, at least one per (translation, category); the other
# 90 are split 45 / 45.
$protest batch plan "$master" --annotators 2 --iaa 30 --seed 2016 --planner round-robin \
    --name "Sample: two annotators with an IAA sample" --created 2026-11-26T09:00:00Z >/dev/null
# Gives part 1 to Anna and part 2 to Ben (the batches written here are thrown away;
# make_batches.sh writes them again from the master).
$protest batch export "$master" --task-set 1 --annotator Anna --annotator Ben \
    --output-dir "$scratch" --created 2026-11-26T09:05:00Z >/dev/null
mv "$master" "$out"
echo "wrote $out: 60 examples, task set 1 with part 1 for Anna and part 2 for Ben"
