#!/usr/bin/env bash
# Rebuilds the sample master from the committed inputs (see inputs/README.md).
#   bash sample_batches/rebuild.sh [OUTPUT]
# The fixed id and creation time make the result byte-identical to the committed
# sample.master.json; tests/sample.rs runs this script and compares.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/sample.master.json}
protest=${PROTEST:-"cargo run --quiet --release --manifest-path $here/../Cargo.toml --"}
in=$here/inputs
$protest import --force \
    --source "$in/news.en" \
    --reference "$in/news.ref.fr" "$in/news.ref.alig" \
    --system mt "$in/news.mt.fr" "$in/news.mt.alig" \
    --documents "$in/news.docs" \
    --suite "$in/sample.suite.tsv" \
    --id sample-news-en-fr-0001 \
    --created 2026-11-25T12:00:00Z \
    --description "Sample PROTEST master: 60 pronoun examples from the DiscoMT news corpus (English-French), reference and one MT system" \
    --output "$out"
