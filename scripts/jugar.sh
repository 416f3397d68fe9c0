#!/usr/bin/env bash
# Installs the referee (Debian packages, Python environment, the Spanish
# speech model) and starts it. Arguments go to `dudo jugar`, e.g.
#   bash scripts/jugar.sh --jugadores ana,beto,carla --reglas caleuchano
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/instalar.sh
# Without the Spanish model the referee still plays by keyboard: a failed
# download (no internet) is reported, and `dudo jugar` says it plays by text.
.venv/bin/dudo modelo descargar --si-falta || true
exec .venv/bin/dudo jugar "$@"
