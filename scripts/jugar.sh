#!/usr/bin/env bash
# Installs the referee (Debian packages, Python environment, the Spanish
# speech model, `dudo` on the user's PATH) and starts it. Arguments go to
# `dudo jugar`, e.g.
#   bash scripts/jugar.sh --jugadores ana,beto,carla --reglas caleuchano
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/instalar.sh
bash scripts/atajo.sh
# Without the Spanish model the referee still plays by keyboard: a failed
# download (no internet) is said in one line, which names how to install the
# model from a file, and the game starts typed without saying it again.
if ! .venv/bin/dudo modelo descargar --si-falta --al-jugar; then
    exec .venv/bin/dudo jugar --texto "$@"
fi
exec .venv/bin/dudo jugar "$@"
