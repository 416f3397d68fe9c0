#!/usr/bin/env bash
# Installs what the tests need and runs them: the linter, the type checker
# (package, tests and scripts), then pytest in two passes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/instalar.sh --test
.venv/bin/ruff check .
.venv/bin/mypy
# Two passes: every test that neither plays nor hears sound, on all the cores (the twenty
# slowest named at its end: where the suite's time goes); then
# those of the sound rooms, one after another (a real-time room starved by parsing on
# the other core underruns and loses speech), and beside them, at the lowest priority,
# the two measurements of every corpus: they take the core a room leaves idle, never
# the time a room needs. A pass with nothing to run (a file of another kind named) is
# no failure.
ok() { [ "$1" -eq 0 ] || [ "$1" -eq 5 ]; }
status=0
.venv/bin/python -m pytest -n auto --durations=20 -m "not audio and not corpus" "$@" || status=$?
ok "$status" || exit "$status"
measured=$(mktemp)
trap 'rm -f "$measured"' EXIT
nice -n 19 .venv/bin/python -m pytest -p no:cacheprovider -m "corpus and not audio" "$@" > "$measured" 2>&1 &
corpus=$!
status=0
.venv/bin/python -m pytest -m audio "$@" || status=$?
corpus_status=0
wait "$corpus" || corpus_status=$?
cat "$measured"
ok "$status" || exit "$status"
ok "$corpus_status" || exit "$corpus_status"
