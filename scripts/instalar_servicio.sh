#!/usr/bin/env bash
# Raspberry Pi: the referee as a systemd *user* service of the table's user,
# started at boot (lingering) and resuming the game from its journal after a
# crash or a power cut. A user service runs beside the user's PipeWire or
# PulseAudio, so it reaches the microphone and the speaker; it never runs as root.
#   sudo bash scripts/instalar_servicio.sh [--usuario pi]
# Idempotent: a second run changes nothing. It checks what it needs (root via
# sudo, the user, a running systemd and logind, apt, sound) before writing anything. The table is set in
# /etc/dudo/mesa.toml (players, rules, microphone, speaker, voice, pantalla).
# DUDO_RAIZ=/some/dir writes under that folder instead of / (homes under
# DUDO_RAIZ/home) and skips apt, loginctl and systemctl (for tests).
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

# Everything is checked before anything is written: either it installs
# completely or it changes nothing and says why.
problems=()
if [ "$user" = "root" ] || { [ -z "$root" ] && getent passwd "$user" >/dev/null && [ "$(id -u "$user")" = 0 ]; }; then
    echo "El árbitro nunca corre como root: indica el usuario de la mesa, por ejemplo: sudo bash scripts/instalar_servicio.sh --usuario pi" >&2
    exit 1
fi
case "$repo$user" in
    *%*) echo "La carpeta o el usuario tienen un «%», que systemd no acepta en una ruta: mueve el repositorio." >&2; exit 1 ;;
esac
if [ -z "$root" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "Hay que correrlo con sudo: sudo bash scripts/instalar_servicio.sh --usuario $user" >&2
        exit 1
    fi
    getent passwd "$user" >/dev/null || problems+=("No existe el usuario «$user» (el de la mesa; se crea con: sudo adduser $user).")
    # systemd as the running init: /run/systemd/system exists only then (sd_booted)
    [ -d /run/systemd/system ] || problems+=("Este sistema no partió con systemd (¿un contenedor o un chroot?): el árbitro se instala como servicio de systemd.")
    if [ -d /run/systemd/system ] && ! systemctl is-active --quiet systemd-logind.service; then
        problems+=("systemd-logind no está corriendo: sin él el servicio no parte al encender (loginctl enable-linger).")
    fi
    command -v apt-get >/dev/null || problems+=("No hay apt-get: el instalador es para Debian o Raspberry Pi OS.")
    if ! command -v pipewire >/dev/null && ! command -v pulseaudio >/dev/null && ! [ -d /dev/snd ]; then
        problems+=("No encuentro sonido: ni PipeWire ni PulseAudio, ni una tarjeta de sonido en /dev/snd.")
    fi
fi
if [ ${#problems[@]} -gt 0 ]; then
    printf '%s\n' "${problems[@]}" >&2
    echo "No cambié nada." >&2
    exit 1
fi

if [ -z "$root" ]; then
    home="$(getent passwd "$user" | cut -d: -f6)"
    sudo -u "$user" bash scripts/instalar.sh
    sudo -u "$user" -H bash scripts/atajo.sh  # `dudo` on the table user's PATH, for the hints the service leaves in its log
    sudo -u "$user" .venv/bin/dudo modelo descargar --si-falta || echo "Sin modelo de voz por ahora: el servicio jugará cuando esté (como $user: dudo modelo descargar, o dudo modelo instalar vosk-model-small-es-0.42.zip)."
    getent group audio >/dev/null && usermod -a -G audio "$user"
else
    home="$root/home/$user"
    mkdir -p "$home"
    HOME="$home" bash scripts/atajo.sh >/dev/null  # as above, in the test root's home
fi

changed=0
install_file() {  # install_file CONTENT PATH MODE [OWNER]: write only when different
    local content="$1" path="$2" mode="$3" owner="${4:-}"
    mkdir -p "$(dirname "$path")"
    if [ ! -f "$path" ] || [ "$(cat "$path")" != "$content" ]; then
        printf '%s\n' "$content" > "$path.tmp"
        chmod "$mode" "$path.tmp"
        [ -n "$owner" ] && [ -z "$root" ] && chown "$owner" "$path.tmp"
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
# the data folder (journals, log) is the only place the service may write
data="${home#"$root"}/.local/share/dudo"
mkdir -p "$root$data"
[ -z "$root" ] && chown -R "$user:" "$home/.local" && chmod 700 "$root$data"
# echo cancellation in the sound server (whichever runs: PulseAudio or PipeWire),
# so the referee hears the table while it talks; the unit makes its two ends the
# defaults, and without them the referee works half duplex, as it says at start
install_file "$(cat scripts/eco/dudo-eco.pa)" "$root/etc/pulse/default.pa.d/dudo-eco.pa" 644
install_file "$(cat scripts/eco/dudo-eco.conf)" "$root/etc/pipewire/pipewire.conf.d/dudo-eco.conf" 644
# the network only when the scoreboard is on (netlink too: the machine's own
# addresses, to show the LAN one and announce dudo.local on each interface)
net="" ipdeny="IPAddressDeny=any"
if grep -Eq '^[[:space:]]*pantalla[[:space:]]*=' "$root$config"; then
    net=" AF_INET AF_INET6 AF_NETLINK" ipdeny=""
fi
unit="$(sed -e "s|@REPO@|$repo|g" -e "s|@USER@|$user|g" -e "s|@CONFIG@|$config|g" -e "s|@DATA@|$data|g" \
            -e "s|@NET@|$net|g" -e "s|@IPDENY@|$ipdeny|g" scripts/dudo.service.in)"
install_file "$unit" "$home/.config/systemd/user/dudo.service" 644 "$user:"

if [ -z "$root" ]; then
    chown -R "$user:" "$home/.config/systemd"
    # an older install ran a system service: retire it
    if [ -f /etc/systemd/system/dudo.service ]; then
        systemctl disable --now dudo.service || true
        rm -f /etc/systemd/system/dudo.service
        systemctl daemon-reload
    fi
    loginctl enable-linger "$user"
    uid="$(id -u "$user")"
    for _ in $(seq 1 20); do [ -S "/run/user/$uid/bus" ] && break; sleep 0.5; done
    as_user() { runuser -u "$user" -- env XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" "$@"; }
    [ "$changed" = 1 ] && as_user systemctl --user daemon-reload
    as_user systemctl --user is-enabled --quiet dudo.service || as_user systemctl --user enable dudo.service
    if [ "$changed" = 1 ]; then
        as_user systemctl --user restart dudo.service
    else
        as_user systemctl --user is-active --quiet dudo.service || as_user systemctl --user start dudo.service
    fi
fi
[ "$changed" = 0 ] && echo "Sin cambios: el servicio ya estaba instalado."
exit 0
