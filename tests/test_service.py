"""The Raspberry Pi service installer: idempotent, and a unit systemd accepts."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


UNIT = Path("home") / "pi" / ".config" / "systemd" / "user" / "dudo.service"


def run_installer(root: Path, user: str = "pi", repo: Path = ROOT, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DUDO_RAIZ": str(root)}
    return subprocess.run(
        ["bash", str(repo / "scripts" / "instalar_servicio.sh"), "--usuario", user],
        env=env, capture_output=True, text=True, check=check,
    )


def tree_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def test_installer_is_idempotent(tmp_path: Path) -> None:
    first = run_installer(tmp_path)
    assert "Escrito" in first.stdout
    after_first = tree_digest(tmp_path)
    assert {"etc/dudo/mesa.toml", str(UNIT), "etc/pulse/default.pa.d/dudo-eco.pa", "etc/pipewire/pipewire.conf.d/dudo-eco.conf"} <= set(after_first)
    assert (tmp_path / "home" / "pi" / ".local" / "share" / "dudo").is_dir()  # the one writable folder exists
    second = run_installer(tmp_path)
    assert "Sin cambios" in second.stdout and "Escrito" not in second.stdout
    assert tree_digest(tmp_path) == after_first


def test_the_tables_user_finds_dudo_in_a_new_login_shell(tmp_path: Path) -> None:
    """The hints the service leaves in its log (dudo modelo instalar …) work as typed by its user."""
    run_installer(tmp_path)
    home = tmp_path / "home" / "pi"
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb",
           "DUDO_DATOS": str(tmp_path / "datos")}
    found = subprocess.run(["bash", "-lc", "dudo modelo --help"], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert found.returncode == 0 and "dudo modelo instalar" in found.stdout, found.stderr


def test_installer_keeps_the_tables_config(tmp_path: Path) -> None:
    run_installer(tmp_path)
    config = tmp_path / "etc" / "dudo" / "mesa.toml"
    config.write_text('jugadores = ["pepe", "lucho"]\nreglas = "yocacho"\n', "utf-8")
    run_installer(tmp_path)
    assert "pepe" in config.read_text("utf-8")


def test_the_service_never_runs_as_root(tmp_path: Path) -> None:
    refused = run_installer(tmp_path, user="root", check=False)
    assert refused.returncode == 1 and "nunca corre como root" in refused.stderr
    assert not (tmp_path / "etc").exists()


def files_under(*folders: Path) -> dict[str, tuple[int, int]]:
    """Every file and link under ``folders`` with its size and modification time."""
    found = {}
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            for name in dirnames + filenames:
                path = Path(dirpath) / name
                st = path.lstat()
                found[str(path)] = (st.st_size, st.st_mtime_ns)
    return found


@pytest.mark.skipif(Path("/run/systemd/system").is_dir() or os.geteuid() != 0,
                    reason="solo donde systemd no corre y como root: aquí el instalador instalaría de verdad")
def test_without_systemd_the_installer_changes_nothing_and_says_why_in_spanish() -> None:
    watched = (Path("/etc"), ROOT / ".venv", Path("/var/lib/dpkg"))
    before = files_under(*watched)
    for user, reason in (("nobody", "no partió con systemd"), ("nadie-en-esta-mesa", "No existe el usuario")):
        refused = subprocess.run(["bash", str(ROOT / "scripts" / "instalar_servicio.sh"), "--usuario", user],
                                 env={k: v for k, v in os.environ.items() if k != "DUDO_RAIZ"}, capture_output=True, text=True)
        assert refused.returncode == 1 and reason in refused.stderr and "No cambié nada." in refused.stderr, refused.stderr
        assert refused.stdout == ""
    assert files_under(*watched) == before


def test_a_plain_install_never_undoes_the_test_install() -> None:
    stamp = ROOT / ".venv" / ".instalado"
    if not stamp.is_file() or stamp.read_text("utf-8").split()[1:] != ["test"]:
        pytest.skip("el entorno no viene de scripts/instalar.sh --test")
    before = stamp.read_text("utf-8")
    plain = subprocess.run(["bash", str(ROOT / "scripts" / "instalar.sh")], capture_output=True, text=True, check=True)
    assert "Instalando" not in plain.stdout and stamp.read_text("utf-8") == before
    again = subprocess.run(["bash", str(ROOT / "scripts" / "instalar.sh"), "--test"], capture_output=True, text=True, check=True)
    assert "Instalando" not in again.stdout and stamp.read_text("utf-8") == before


def unit_keys(text: str) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            keys.setdefault(key, []).append(value)
    return keys


def test_the_unit_is_hardened_and_reaches_the_network_only_for_the_scoreboard(tmp_path: Path) -> None:
    run_installer(tmp_path)
    keys = unit_keys((tmp_path / UNIT).read_text("utf-8"))
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "read-only", "PrivateTmp": "yes",
                       "UMask": "0077", "RestrictAddressFamilies": "AF_UNIX", "IPAddressDeny": "any",
                       "CapabilityBoundingSet": "", "RestartPreventExitStatus": "3", "StartLimitBurst": "5"}.items():
        assert keys.get(key) == [value], key
    assert keys["ReadWritePaths"] == ['"/home/pi/.local/share/dudo"']
    assert keys["WantedBy"] == ["default.target"]  # a user service, started at boot by lingering
    assert "User" not in keys
    config = tmp_path / "etc" / "dudo" / "mesa.toml"
    config.write_text(config.read_text("utf-8") + 'pantalla = "8080"\n', "utf-8")
    run_installer(tmp_path)
    keys = unit_keys((tmp_path / UNIT).read_text("utf-8"))
    # the network for the page; netlink to list the machine's addresses (the LAN address, mDNS on each interface)
    assert keys["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6 AF_NETLINK"] and "IPAddressDeny" not in keys


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze no está")
def test_unit_passes_systemd_analyze_verify_and_security(tmp_path: Path) -> None:
    run_installer(tmp_path)
    unit = tmp_path / UNIT
    text = unit.read_text("utf-8")
    assert f'ExecStart="{ROOT}/.venv/bin/dudo" jugar --continuar --config "/etc/dudo/mesa.toml"' in text
    assert "Restart=always" in text
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines() if "dudo.service" in line]
    assert result.returncode == 0 and not problems, result.stderr
    # read as a system unit it even counts "runs as root" (a user unit has no User=): still OK
    security = subprocess.run(["systemd-analyze", "security", "--offline=true", "--threshold=20", str(unit)],
                              capture_output=True, text=True)
    assert security.returncode == 0, security.stdout[-400:]
    assert "Overall exposure level for dudo.service: 1." in security.stdout


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze no está")
def test_paths_with_spaces_are_quoted(tmp_path: Path) -> None:
    repo = tmp_path / "mi repo"
    (repo / "scripts").mkdir(parents=True)
    for name in ("instalar_servicio.sh", "atajo.sh", "dudo.service.in", "mesa.toml.ejemplo"):
        shutil.copy(ROOT / "scripts" / name, repo / "scripts" / name)
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "dudo").symlink_to(ROOT / ".venv" / "bin" / "dudo")
    run_installer(tmp_path / "raiz", repo=repo)
    unit = tmp_path / "raiz" / UNIT
    assert f'ExecStart="{repo}/.venv/bin/dudo" jugar' in unit.read_text("utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    assert result.returncode == 0 and "dudo.service" not in result.stderr, result.stderr
    home = tmp_path / "raiz" / "home" / "pi"  # the shim quotes a path with spaces too
    found = subprocess.run(["bash", "-lc", "dudo --help"], env={"HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert found.returncode == 0 and "Uso: dudo" in found.stdout, found.stderr


def test_with_no_model_the_service_stops_with_the_reason(tmp_path: Path) -> None:
    """Under systemd (INVOCATION_ID set) and without a model, exit 3: the unit
    does not restart on it, and the reason is on stderr (the journal)."""
    from tests.test_cli import dudo

    result = dudo("jugar", "--jugadores", "ana,beto", env={"INVOCATION_ID": "prueba", "DUDO_MODELO": "",
                                                              "DUDO_MODELOS": str(tmp_path), "DUDO_DATOS": str(tmp_path)})
    assert result.returncode == 3
    assert "No hay modelo de voz en español" in result.stderr and "no vuelvo a intentarlo" in result.stderr
