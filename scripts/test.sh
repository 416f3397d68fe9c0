#!/usr/bin/env bash
# Installs what the tests need and runs them: the linter, the type checker
# (package, tests and scripts), then pytest in two passes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/instalar.sh --test
.venv/bin/ruff check .
.venv/bin/mypy
# Two passes: every test that neither plays nor hears sound, on all the cores; then
# those of the sound rooms, one after another on a quiet machine (a real-time room
# starved by parsing on the other core underruns and loses speech).
# A pass with nothing to run (a file of the other kind named) is no failure.
status=0
.venv/bin/python -m pytest -n auto -m "not audio" "$@" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 5 ] || exit "$status"
status=0
.venv/bin/python -m pytest -m audio "$@" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 5 ] || exit "$status"
