#!/usr/bin/env bash
# Installs what the tests need and runs them: the type checker, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/instalar.sh --test
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
