#!/usr/bin/env bash
# Raspberry Pi: the referee as a systemd service that starts at boot and,
# after a crash or a power cut, resumes the game from its journal.
#   sudo bash scripts/instalar_servicio.sh [--usuario pi]
# Idempotent: a second run changes nothing. The table is set in
# /etc/dudo/mesa.toml (players, rules, microphone, speaker, voice).
# DUDO_RAIZ=/some/dir writes under that folder instead of / and skips
# apt and systemctl (for tests).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
root="${DUDO_RAIZ:-}"
user="${SUDO_USER:-$(id -un)}"
while [ $# -gt 0 ]; do
    case "$1" in
        --usuario) user="$2"; shift 2 ;;
        *) echo "Opción desconocida: $1" >&2; exit 2 ;;
    esac
done

if [ -z "$root" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "Hay que correrlo con sudo: sudo bash scripts/instalar_servicio.sh" >&2
        exit 1
    fi
    sudo -u "$user" bash scripts/instalar.sh
    sudo -u "$user" .venv/bin/dudo modelo descargar --si-falta || echo "Sin modelo de voz por ahora: el servicio jugará cuando esté (dudo modelo descargar)."
    getent group audio >/dev/null && usermod -a -G audio "$user"
fi

changed=0
install_file() {  # install_file CONTENT PATH MODE: write only when different
    local content="$1" path="$2" mode="$3"
    mkdir -p "$(dirname "$path")"
    if [ ! -f "$path" ] || [ "$(cat "$path")" != "$content" ]; then
        printf '%s\n' "$content" > "$path.tmp"
        chmod "$mode" "$path.tmp"
        mv "$path.tmp" "$path"
        echo "Escrito: $path"
        changed=1
    fi
}

config="/etc/dudo/mesa.toml"
if [ ! -f "$root$config" ]; then
    install_file "$(cat scripts/mesa.toml.ejemplo)" "$root$config" 644
    echo "Edita $config con los jugadores y las reglas de tu mesa."
fi
unit="$(sed -e "s|@REPO@|$repo|g" -e "s|@USER@|$user|g" -e "s|@CONFIG@|$config|g" scripts/dudo.service.in)"
install_file "$unit" "$root/etc/systemd/system/dudo.service" 644

if [ -z "$root" ]; then
    if [ "$changed" = 1 ]; then
        systemctl daemon-reload
    fi
    systemctl is-enabled --quiet dudo.service || systemctl enable dudo.service
    systemctl is-active --quiet dudo.service || systemctl start dudo.service
    [ "$changed" = 1 ] && systemctl restart dudo.service
fi
[ "$changed" = 0 ] && echo "Sin cambios: el servicio ya estaba instalado."
exit 0
