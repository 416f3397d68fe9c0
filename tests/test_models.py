"""Model download against a real HTTP server on loopback: whole, torn, wrong."""

from __future__ import annotations

import hashlib
import http.server
import io
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from assistant.voice import models


def fake_model_zip(name: str = "modelo-prueba") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr(f"{name}/am/final.mdl", b"am" * 4000)
        zf.writestr(f"{name}/conf/model.conf", "--beam=10.0\n")
        zf.writestr(f"{name}/graph/HCLr.fst", b"h" * 3000)
        zf.writestr(f"{name}/graph/Gr.fst", b"g" * 3000)
    return buffer.getvalue()


ARCHIVE = fake_model_zip()


class Handler(http.server.BaseHTTPRequestHandler):
    mode = "ok"
    requests: ClassVar[list[str | None]] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        Handler.requests.append(self.headers.get("Range"))
        body = ARCHIVE
        start = 0
        if self.headers.get("Range") and Handler.mode != "no-range":
            start = int(self.headers["Range"].split("=")[1].rstrip("-"))
            self.send_response(206)
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        if Handler.mode == "torn":
            self.wfile.write(body[start : start + len(body) // 3])
            self.wfile.flush()
            self.connection.close()
            Handler.mode = "ok"  # the next attempt gets the rest
            return
        self.wfile.write(body[start:])


@pytest.fixture()
def server() -> Iterator[str]:
    Handler.mode = "ok"
    Handler.requests = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/modelo.zip"
    httpd.shutdown()


def spec(url: str, digest: str | None = None) -> models.ModelSpec:
    return models.ModelSpec(
        name="modelo-prueba", url=url, sha256=(digest or hashlib.sha256(ARCHIVE).hexdigest(),),
        min_bytes=1000, max_bytes=1_000_000,
    )


def test_download_verifies_and_unpacks(server: str, tmp_path: Path) -> None:
    path = models.install(spec(server), tmp_path, progress=False)
    assert path == tmp_path / "modelo-prueba" and models.is_complete(path)
    assert models.has_dynamic_graph(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["modelo-prueba"]  # no leftovers


def test_wrong_checksum_leaves_nothing(server: str, tmp_path: Path) -> None:
    with pytest.raises(models.DownloadError, match="suma de verificación"):
        models.install(spec(server, "0" * 64), tmp_path, progress=False)
    assert list(tmp_path.iterdir()) == []


def test_torn_download_never_leaves_a_model_and_resumes(server: str, tmp_path: Path) -> None:
    Handler.mode = "torn"
    with pytest.raises(models.DownloadError, match=r"incompleta|cortó"):
        models.install(spec(server), tmp_path, progress=False)
    assert not (tmp_path / "modelo-prueba").exists()
    part = tmp_path / "modelo-prueba.zip.part"
    assert 0 < part.stat().st_size < len(ARCHIVE)
    path = models.install(spec(server), tmp_path, progress=False)
    assert models.is_complete(path)
    assert Handler.requests[-1] is not None and Handler.requests[-1].startswith("bytes=")


def test_server_without_ranges_restarts(server: str, tmp_path: Path) -> None:
    (tmp_path / "modelo-prueba.zip.part").write_bytes(ARCHIVE[:500])
    Handler.mode = "no-range"
    assert models.is_complete(models.install(spec(server), tmp_path, progress=False))


def test_size_out_of_range_is_refused(server: str, tmp_path: Path) -> None:
    tiny = models.ModelSpec("modelo-prueba", server, (), min_bytes=10, max_bytes=100)
    with pytest.raises(models.DownloadError, match="bytes"):
        models.install(tiny, tmp_path, progress=False)


def test_local_file_url_and_not_a_zip(tmp_path: Path) -> None:
    archive = tmp_path / "m.zip"
    archive.write_bytes(ARCHIVE)
    folder = tmp_path / "modelos"
    assert models.is_complete(models.install(spec(archive.as_uri()), folder, progress=False))
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"x" * 5000)
    bad = models.ModelSpec("otro", junk.as_uri(), (), 1000, 1_000_000)
    with pytest.raises(models.DownloadError, match="zip"):
        models.install(bad, folder, progress=False)
    assert not (folder / "otro").exists()


def test_unreachable_server_is_one_spanish_line_naming_the_file_install(tmp_path: Path) -> None:
    with pytest.raises(models.Offline, match="No pude conectarme") as caught:
        models.install(spec("http://127.0.0.1:9/modelo.zip"), tmp_path, progress=False)
    said = str(caught.value)
    assert "\n" not in said and "dudo modelo instalar modelo-prueba.zip" in said
    assert "Errno" not in said and "refused" not in said.lower()  # the system's words go to the log only


def test_the_published_archive_name_is_said_the_same_everywhere() -> None:
    from assistant import messages
    from assistant.voice import messages as voice_messages

    assert models.archive_name(models.SPANISH) == voice_messages.PUBLISHED_ZIP
    assert voice_messages.PUBLISHED_ZIP in messages.PLAYING_BY_KEYBOARD and voice_messages.PUBLISHED_ZIP in messages.SERVICE_WITHOUT_MODEL
    assert voice_messages.PUBLISHED_ZIP in voice_messages.MISSING_MODEL


def test_a_brought_zip_without_a_whole_model_or_that_does_not_load_installs_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "modelos"
    half = tmp_path / "medio.zip"
    with zipfile.ZipFile(half, "w") as zf:
        zf.writestr("vosk-model-small-es-0.42/am/final.mdl", b"am")
    with pytest.raises(models.DownloadError, match="completo"):
        models.install_from(half, folder)
    fake = tmp_path / "vosk-model-small-es-0.42.zip"
    fake.write_bytes(fake_model_zip("vosk-model-small-es-0.42"))
    with pytest.raises(models.DownloadError, match="no lo instalé"):
        models.install_from(fake, folder, loads=lambda _path: "no carga")
    assert [p.name for p in folder.iterdir()] == []  # no staging left behind
    with pytest.raises(models.DownloadError, match="No encuentro"):
        models.install_from(tmp_path / "no-esta.zip", folder)


def test_a_brought_folder_or_another_spanish_model_is_found_and_a_foreign_one_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUDO_MODELO", raising=False)
    folder = tmp_path / "modelos"
    monkeypatch.setenv("DUDO_MODELOS", str(folder))
    korean = tmp_path / "vosk-model-small-ko-0.22.zip"
    korean.write_bytes(fake_model_zip("vosk-model-small-ko-0.22"))
    done = models.install_from(korean, folder)
    assert done.path == folder / "vosk-model-small-ko-0.22" and not done.spanish and not done.published
    assert models.find_model() is None  # another language is used only when named with --modelo
    unpacked = tmp_path / "desempacado"
    with zipfile.ZipFile(io.BytesIO(fake_model_zip("vosk-model-es-0.42"))) as zf:
        zf.extractall(unpacked)
    done = models.install_from(unpacked / "vosk-model-es-0.42", folder)
    assert done.spanish and models.find_model() == folder / "vosk-model-es-0.42"
    assert "vosk-model-es-0.42" in models.status_lines()[0]


def test_find_model_and_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUDO_MODELO", raising=False)
    monkeypatch.setenv("DUDO_MODELOS", str(tmp_path))
    assert models.find_model() is None
    assert "dudo modelo descargar" in models.status_lines()[0]
    with pytest.raises(models.DownloadError, match="no es un modelo"):
        models.find_model(tmp_path)
