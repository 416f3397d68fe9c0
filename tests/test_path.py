"""`dudo` on the PATH after the README's play command: a shim in ~/.local/bin
that a new login shell finds (Debian's ~/.profile convention), tried in a fresh
home each time, as a newcomer's machine would be."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def login_shell(home: Path, command: str, shell: str = "bash") -> subprocess.CompletedProcess[str]:
    """A new login shell of a user whose home is ``home``, with nothing of ours in its environment."""
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb",
           "DUDO_DATOS": str(home / "datos")}
    return subprocess.run([shell, "-lc", command], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)


def shim(home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(ROOT / "scripts" / "atajo.sh")], capture_output=True, text=True,
                          env={**os.environ, "HOME": str(home)}, timeout=120)


def needs_venv() -> None:
    if not (ROOT / ".venv" / "bin" / "dudo").exists():
        pytest.skip("el entorno no viene de scripts/instalar.sh")


@pytest.mark.parametrize("startup", [None, ".profile", ".bash_profile"])
def test_a_new_login_shell_finds_dudo(tmp_path: Path, startup: str | None) -> None:
    needs_venv()
    home = tmp_path / "casa"
    home.mkdir()
    if startup is not None:
        (home / startup).write_text("# what the user already had\nexport MIO=1\n", "utf-8")
    assert login_shell(home, "command -v dudo").returncode != 0  # not there before
    first = shim(home)
    assert first.returncode == 0, first.stderr
    found = login_shell(home, "command -v dudo && dudo --help")
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0] == str(home / ".local" / "bin" / "dudo") and "Uso: dudo" in found.stdout
    assert login_shell(home, "echo $MIO").stdout.strip() == ("1" if startup else "")  # what was there still runs
    if startup != ".bash_profile":
        assert login_shell(home, "command -v dudo", shell="sh").returncode == 0  # sh and dash read ~/.profile too
    files = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    again = shim(home)
    assert again.returncode == 0 and {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == files  # idempotent


def test_a_dudo_the_shim_did_not_write_is_left_alone(tmp_path: Path) -> None:
    needs_venv()
    home = tmp_path / "casa"
    theirs = home / ".local" / "bin" / "dudo"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#!/bin/sh\necho otro\n", "utf-8")
    done = shim(home)
    assert done.returncode == 0 and "no lo toco" in done.stdout and str(ROOT / ".venv" / "bin" / "dudo") in done.stdout
    assert theirs.read_text("utf-8") == "#!/bin/sh\necho otro\n"


def test_a_moved_clone_is_said_in_spanish(tmp_path: Path) -> None:
    needs_venv()
    home = tmp_path / "casa"
    home.mkdir()
    assert shim(home).returncode == 0
    script = (home / ".local" / "bin" / "dudo").read_text("utf-8").replace(str(ROOT), str(tmp_path / "no-esta"))
    (home / ".local" / "bin" / "dudo").write_text(script, "utf-8")
    gone = login_shell(home, "dudo --help")
    assert gone.returncode == 1 and "No encuentro el árbitro" in gone.stderr and "bash scripts/jugar.sh" in gone.stderr


@pytest.mark.slow
def test_the_readme_play_command_offline_then_dudo_in_a_new_login_shell(tmp_path: Path) -> None:
    """The issue's check: the README's play command with its input closed at once,
    on a machine without internet (a proxy that refuses), then ``dudo --help`` in a
    new login shell. Offline the model is said in one Spanish line naming the
    command that installs it from a file, and the game starts typed."""
    needs_venv()
    home = tmp_path / "casa"
    home.mkdir()
    readme = (ROOT / "README.md").read_text("utf-8")
    play = next(line for line in readme.splitlines() if line.startswith("bash scripts/jugar.sh"))
    env = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "dumb",
           "DUDO_DATOS": str(home / "datos"), "DUDO_MODELOS": str(tmp_path / "modelos"),
           "https_proxy": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9"}
    done = subprocess.run(["bash", "-c", play], cwd=ROOT, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    model_lines = [line for line in said.splitlines() if "modelo de voz" in line]
    assert model_lines == ["Sin internet no pude bajar el modelo de voz: se juega escribiendo. Para jugar hablando, "
                           "con el archivo en un pendrive: dudo modelo instalar vosk-model-small-es-0.42.zip"], said
    assert "Errno" not in said and "Traceback" not in said and "urlopen" not in said
    assert "¡Hola! Juegan ana, beto y carla" in done.stdout
    found = login_shell(home, "dudo --help && dudo modelo --help")
    assert found.returncode == 0 and "dudo modelo instalar" in found.stdout, found.stderr
