#!/usr/bin/env bash
# Exports the two sample batches of task set 1 from a copy of the sample master (see README.md in
# this folder).
#   bash sample_batches/make_batches.sh WORK_DIR
# WORK_DIR gets sample.master.json (a copy of the committed one, which rebuild.sh planned: task
# set 1, part 1 for Anna and part 2 for Ben) and the two empty batches sample.batch-1-anna.json and
# sample.batch-1-ben.json. The committed batches of this folder are these two after annotation;
# merge them into the master (or a copy of it) with
#   protest batch import WORK_DIR/sample.master.json sample_batches/sample.batch-1-*.json
# The fixed times make the result the same every time; tests/sample_batches.rs checks it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: make_batches.sh WORK_DIR}
protest=${PROTEST:-"cargo run --quiet --release --manifest-path $here/../Cargo.toml --"}
mkdir -p "$work"
cp "$here/sample.master.json" "$work/sample.master.json"
$protest batch export "$work/sample.master.json" --task-set 1 --annotator Anna --annotator Ben \
    --output-dir "$work" --created 2026-11-26T09:05:00Z
