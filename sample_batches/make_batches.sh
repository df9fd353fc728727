#!/usr/bin/env bash
# Plans a task set for two annotators on a copy of the sample master and exports their batches
# (see README.md in this folder).
#   bash sample_batches/make_batches.sh WORK_DIR
# WORK_DIR gets sample.master.json (the copy, now with task set 1 and the annotators Anna and Ben)
# and the two empty batches sample.batch-1-anna.json and sample.batch-1-ben.json. The committed
# batches of this folder are these two after annotation; merge them into WORK_DIR's master with
#   protest batch import WORK_DIR/sample.master.json sample_batches/sample.batch-1-*.json
# The fixed seed and times make the result the same every time; tests/sample_batches.rs checks it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: make_batches.sh WORK_DIR}
protest=${PROTEST:-"cargo run --quiet --release --manifest-path $here/../Cargo.toml --"}
mkdir -p "$work"
cp "$here/sample.master.json" "$work/sample.master.json"
# Both translations (reference and MT), all 13 categories: 120 candidates. 30 go to both
# annotators for inter-annotator agreement, at least one per (translation, category); the other
# 90 are split 45 / 45.
$protest batch plan "$work/sample.master.json" --annotators 2 --iaa 30 --seed 2016 \
    --name "Sample: two annotators with an IAA sample" --created 2026-11-26T09:00:00Z
$protest batch export "$work/sample.master.json" --task-set 1 --annotator Anna --annotator Ben \
    --output-dir "$work" --created 2026-11-26T09:05:00Z
