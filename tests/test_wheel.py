"""The package installs whole: a built wheel, in a fresh venv, understands a bid.

The wheel is built from the checkout and installed without the checkout on
the path, so a file that only the repository has (the lexicon was one) fails
here. The dependencies come from the project's own .venv through a path file,
not from the network (only the build backend, setuptools, comes from the registry).
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_a_built_wheel_understands_a_bid(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    [wheel] = list(wheels.glob("dudo_arbitro-*.whl"))
    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    python = target / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    # the dependencies only: the .venv's site-packages holds no copy of assistant
    Path(site, "dependencias.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", "utf-8")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, timeout=300)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import assistant; print(assistant.__file__)"],
        cwd=outside, check=True, capture_output=True, text=True,
    ).stdout
    assert where.startswith(site), f"assistant came from {where}, not the installed wheel"
    result = subprocess.run(
        [str(target / "bin" / "dudo"), "interpretar", "tres trenes"],
        cwd=outside, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"accion": "apuesta", "cantidad": 3, "pinta": 3}
    # the scoreboard page and the recording list travel with the package too
    data = subprocess.run(
        [str(python), "-c", "from assistant import scoreboard, fieldkit; print(len(scoreboard.page()), len(fieldkit.builtin_phrases(['ana'])))"],
        cwd=outside, check=True, capture_output=True, text=True,
    ).stdout.split()
    assert int(data[0]) > 1000 and int(data[1]) > 30
    # and the topic model (lexicon/tema.json): talk around a loose move stays talk
    talk = subprocess.run(
        [str(target / "bin" / "dudo"), "interpretar", "la señora marta hizo cena pa' seis y llegamos doce, jaja"],
        cwd=outside, capture_output=True, text=True, timeout=120,
    )
    assert json.loads(talk.stdout) == {"accion": "desconocido"}, talk.stdout + talk.stderr
