#!/usr/bin/env bash
# Installs everything the referee needs on Debian / Raspberry Pi OS:
# Debian packages (espeak-ng for the voice, PortAudio for the microphone,
# aplay for pyttsx3, pactl to ask the sound server for echo cancellation), a virtual environment in .venv and the package itself.
# Idempotent: what is already there is left alone.
#   scripts/instalar.sh          the referee
#   scripts/instalar.sh --test   plus what the tests need (PulseAudio, sox,
#                                the Korean vosk model used as a stand-in,
#                                Debian's Chromium and ChromeDriver for the
#                                scoreboard page: no browser is ever downloaded)
set -euo pipefail
cd "$(dirname "$0")/.."

test_extras=0
[ "${1:-}" = "--test" ] && test_extras=1

packages=(espeak-ng libportaudio2 alsa-utils pulseaudio-utils)
[ "$test_extras" = 1 ] && packages+=(sox pulseaudio libasound2-plugins tmux chromium chromium-driver)
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
spec="."
[ "$test_extras" = 1 ] && spec=".[test]"
# Reinstall only when pyproject.toml changed since the last install.
stamp=".venv/.instalado-$(sha256sum pyproject.toml | cut -c1-16)-$test_extras"
if [ ! -f "$stamp" ]; then
    echo "Instalando el paquete de Python en .venv"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e "$spec"
    rm -f .venv/.instalado-*
    touch "$stamp"
fi
