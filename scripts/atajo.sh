#!/usr/bin/env bash
# Puts `dudo` on the user's PATH, so every `dudo …` in the README and in the
# program's own hints works as typed: a small shim in ~/.local/bin (where a
# user's own commands go, per the XDG base directories and systemd's
# file-hierarchy) that runs this clone's .venv/bin/dudo, and ~/.local/bin on a
# login shell's PATH the way Debian does it (/etc/skel/.profile adds it when
# the folder exists). Idempotent; it never replaces a `dudo` it did not write.
# Run by scripts/jugar.sh, and by scripts/instalar_servicio.sh as the table's user.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd -P)"
bin="$HOME/.local/bin"
shim="$bin/dudo"
mark="# dudo: atajo de scripts/atajo.sh"

mkdir -p "$bin"
if [ -e "$shim" ] && ! grep -qF "$mark" "$shim" 2>/dev/null; then
    echo "Ya hay otro «dudo» en $shim; no lo toco. Este árbitro se llama con: $repo/.venv/bin/dudo"
    exit 0
fi
wanted="#!/bin/sh
$mark ($repo)
if [ ! -x \"$repo/.venv/bin/dudo\" ]; then
    echo \"No encuentro el árbitro en $repo (¿se movió o se borró la carpeta?). En la carpeta nueva: bash scripts/jugar.sh\" >&2
    exit 1
fi
exec \"$repo/.venv/bin/dudo\" \"\$@\""
if [ "$(cat "$shim" 2>/dev/null)" != "$wanted" ]; then
    printf '%s\n' "$wanted" > "$shim.tmp"
    chmod 755 "$shim.tmp"
    mv -f "$shim.tmp" "$shim"
fi

# A login shell reads the first of ~/.bash_profile, ~/.bash_login, ~/.profile
# (bash); sh and dash read ~/.profile. Debian's ~/.profile already adds
# ~/.local/bin; a home without one gets Debian's own, and a startup file without
# the line gets Debian's lines at its end.
finds_it() {
    env -i HOME="$HOME" USER="${USER:-$(id -un)}" LOGNAME="${LOGNAME:-$(id -un)}" SHELL=/bin/bash TERM=dumb \
        bash -lc 'command -v dudo' </dev/null 2>/dev/null | grep -qxF "$shim"
}
if ! finds_it; then
    startup=""
    for f in "$HOME/.bash_profile" "$HOME/.bash_login" "$HOME/.profile"; do
        [ -f "$f" ] && { startup="$f"; break; }
    done
    if [ -z "$startup" ] && [ -f /etc/skel/.profile ]; then
        cp /etc/skel/.profile "$HOME/.profile"
    else
        startup="${startup:-$HOME/.profile}"
        {
            echo ""
            echo "# set PATH so it includes user's private bin if it exists (added by the Dudo referee, as Debian's ~/.profile does)"
            echo "if [ -d \"\$HOME/.local/bin\" ] ; then"
            echo "    PATH=\"\$HOME/.local/bin:\$PATH\""
            echo "fi"
        } >> "$startup"
    fi
    if ! finds_it; then
        echo "Dejé «dudo» en $shim, pero una terminal nueva no lo encuentra: agrega $bin a tu PATH."
        exit 0
    fi
fi
case ":$PATH:" in
    *":$bin:"*) ;;
    *) echo 'La orden «dudo» queda lista en las terminales nuevas (en esta: export PATH="$HOME/.local/bin:$PATH").' ;;
esac
