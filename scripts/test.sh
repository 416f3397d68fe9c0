#!/usr/bin/env bash
# Installs what the tests need and runs them: the linter, the type checker
# (package, tests and scripts), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/instalar.sh --test
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
