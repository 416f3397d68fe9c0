#!/usr/bin/env bash
# Installs everything the referee needs on Debian / Raspberry Pi OS:
# Debian packages (espeak-ng for the voice, PortAudio for the microphone,
# aplay for pyttsx3, pactl to ask the sound server for echo cancellation, and
# on ARM the libatomic that vosk's aarch64/armhf library is linked against), a
# virtual environment in .venv and the package itself.
# Idempotent: what is already there is left alone.
#   scripts/instalar.sh          the referee
#   scripts/instalar.sh --test   plus what the tests need (PulseAudio, sox,
#                                the Korean vosk model used as a stand-in,
#                                Debian's Chromium and ChromeDriver for the
#                                scoreboard page: no browser is ever downloaded;
#                                man-db for systemd-analyze, iproute2 for ss
#                                and network namespaces, zbar-tools to read
#                                the page's QR code)
# One stamp (.venv/.instalado) says which pyproject.toml and which extras are
# installed: a plain install after the test install keeps the test extras.
set -euo pipefail
cd "$(dirname "$0")/.."

test_extras=0
[ "${1:-}" = "--test" ] && test_extras=1

packages=(espeak-ng libportaudio2 alsa-utils pulseaudio-utils)
case "$(dpkg --print-architecture 2>/dev/null || uname -m)" in
    arm64 | armhf | aarch64 | arm*) packages+=(libatomic1) ;;  # libvosk.so needs libatomic.so.1 there
esac
[ "$test_extras" = 1 ] && packages+=(sox pulseaudio libasound2-plugins tmux chromium chromium-driver man-db iproute2 zbar-tools)
python3 -m venv --help >/dev/null 2>&1 || packages+=(python3-venv)
python3 -c "import ensurepip" >/dev/null 2>&1 || packages+=(python3-venv)

missing=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Instalando paquetes de Debian: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
# Reinstall only when pyproject.toml changed or more extras are asked for; never fewer.
stamp=".venv/.instalado"
wanted="$(sha256sum pyproject.toml | cut -c1-16)"
had="" had_extras="ninguno"
[ -f "$stamp" ] && read -r had had_extras < "$stamp" || true
for old in .venv/.instalado-*-*; do  # an older installer's stamp: .instalado-HASH-1 was the test install
    [ -f "$old" ] && [ -z "$had" ] || continue
    had="${old#.venv/.instalado-}" && had="${had%-*}"
    case "$old" in *-1) had_extras="test" ;; esac
done
extras="ninguno"
{ [ "$test_extras" = 1 ] || [ "$had_extras" = "test" ]; } && extras="test"
if [ "$had" != "$wanted" ] || [ "$had_extras" != "$extras" ]; then
    spec="."
    [ "$extras" = "test" ] && spec=".[test]"
    echo "Instalando el paquete de Python en .venv ($spec)"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e "$spec"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted $extras" ]; then
    printf '%s %s\n' "$wanted" "$extras" > "$stamp"
    rm -f .venv/.instalado-*
fi
