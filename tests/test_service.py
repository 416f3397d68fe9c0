"""The Raspberry Pi service installer: idempotent, and a unit systemd accepts."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_installer(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DUDO_RAIZ": str(root)}
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "instalar_servicio.sh"), "--usuario", "root"],
        env=env, capture_output=True, text=True, check=True,
    )


def tree_digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


def test_installer_is_idempotent(tmp_path: Path) -> None:
    first = run_installer(tmp_path)
    assert "Escrito" in first.stdout
    after_first = tree_digest(tmp_path)
    assert {"etc/dudo/mesa.toml", "etc/systemd/system/dudo.service"} <= set(after_first)
    second = run_installer(tmp_path)
    assert "Sin cambios" in second.stdout and "Escrito" not in second.stdout
    assert tree_digest(tmp_path) == after_first


def test_installer_keeps_the_tables_config(tmp_path: Path) -> None:
    run_installer(tmp_path)
    config = tmp_path / "etc" / "dudo" / "mesa.toml"
    config.write_text('jugadores = ["pepe", "lucho"]\nreglas = "yocacho"\n', "utf-8")
    run_installer(tmp_path)
    assert "pepe" in config.read_text("utf-8")


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze no está")
def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    run_installer(tmp_path)
    unit = tmp_path / "etc" / "systemd" / "system" / "dudo.service"
    text = unit.read_text("utf-8")
    assert f"ExecStart={ROOT}/.venv/bin/dudo jugar --continuar --config /etc/dudo/mesa.toml" in text
    assert "Restart=always" in text
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines() if "dudo.service" in line]
    assert result.returncode == 0 and not problems, result.stderr
