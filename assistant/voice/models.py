"""Speech models: where they live, and a download that never leaves half a model.

The download streams to ``<name>.zip.part`` (resuming it when the server
allows), checks the size the server announced and the archive's sha256, then
unpacks into a temporary folder beside the target and moves it into place
with one rename. A model folder either is complete or does not exist.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from assistant.voice import messages as say

CHUNK = 256 * 1024

log = logging.getLogger("dudo")


class DownloadError(Exception):
    """A download or unpack that failed; the message is Spanish, for the player."""


class Offline(DownloadError):
    """The server could not be reached at all (no internet, most likely); the
    system's words for it are in ``detail``, for the log, never for the table."""

    def __init__(self, message: str, detail: object) -> None:
        super().__init__(message)
        self.detail = detail


@dataclass(frozen=True)
class ModelSpec:
    """A model archive: where to get it and how to know it is the right one."""

    name: str
    url: str
    sha256: tuple[str, ...]
    """Accepted digests (lower-case hex); empty accepts any (then size only)."""
    min_bytes: int
    max_bytes: int

    def at(self, url: str) -> ModelSpec:
        return replace(self, url=url)


# The official small Spanish model. Its size is about 39 MB. The digests are
# the two that public installers pin for this file; DUDO_MODELO_SHA256
# replaces them if the archive is ever republished.
SPANISH = ModelSpec(
    name="vosk-model-small-es-0.42",
    url="https://alphacephei.com/vosk/models/vosk-model-small-es-0.42.zip",
    sha256=(
        "f7e409775888b859504f829148d464472b725f0c60211472edbba7d6851124c8",
        "09b239888f633ef2f0b4e09736e3d9936acfd810bc65d53fad45261762c6511f",
    ),
    min_bytes=30_000_000,
    max_bytes=60_000_000,
)

MISSING_MODEL = say.MISSING_MODEL


def models_dir() -> Path:
    """``$DUDO_MODELOS`` or the repository's ``models/`` folder."""
    env = os.environ.get("DUDO_MODELOS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "models"


def is_complete(path: Path) -> bool:
    """Does ``path`` hold a loadable vosk model (acoustic model, conf and a graph)?"""
    graph = path / "graph"
    has_graph = (graph / "HCLG.fst").is_file() or ((graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file())
    return (path / "am" / "final.mdl").is_file() and (path / "conf" / "model.conf").is_file() and has_graph


def has_dynamic_graph(path: Path) -> bool:
    """Only models with HCLr.fst + Gr.fst accept a runtime grammar."""
    return (path / "graph" / "HCLr.fst").is_file() and (path / "graph" / "Gr.fst").is_file()


def archive_name(spec: ModelSpec) -> str:
    """The archive's file name as published (``vosk-model-small-es-0.42.zip``)."""
    return f"{spec.name}.zip"


SPANISH_NAME = re.compile(r"^vosk-model(-small)?-es(-|$)")
"""How vosk names its Spanish models (the small one and the big one)."""


def find_model(explicit: Path | None = None) -> Path | None:
    """The model to use: ``--modelo``, else ``$DUDO_MODELO``, else the Spanish one in
    ``models/`` (the small one published, else another Spanish vosk model installed there)."""
    for candidate in (explicit, Path(os.environ["DUDO_MODELO"]) if os.environ.get("DUDO_MODELO") else None):
        if candidate is not None:
            if not is_complete(candidate):
                raise DownloadError(say.not_a_model(candidate))
            return candidate
    return installed_spanish()


def installed_spanish() -> Path | None:
    """The Spanish model in ``models/``: the published small one, else another Spanish vosk model."""
    folder = models_dir()
    default = folder / SPANISH.name
    if is_complete(default):
        return default
    others = sorted(p for p in folder.glob("vosk-model*") if SPANISH_NAME.match(p.name) and is_complete(p)) if folder.is_dir() else []
    return others[0] if others else None


def _expected_digests(spec: ModelSpec) -> tuple[str, ...]:
    env = os.environ.get("DUDO_MODELO_SHA256")
    return (env.lower(),) if env else spec.sha256


def download(spec: ModelSpec, part: Path, progress: bool = True) -> Path:
    """Fetch ``spec.url`` into ``part`` (resuming), verify it, return the finished file."""
    import urllib.error
    import urllib.request

    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(spec.url, headers={"Range": f"bytes={have}-"} if have else {})
    try:
        response = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as err:
        if err.code == 416 and have:  # nothing left to fetch: the part is whole
            return _verify(spec, part, have)
        raise DownloadError(say.server_said(err.code, spec.url)) from err
    except (urllib.error.URLError, OSError) as err:
        raise Offline(say.cannot_connect(archive_name(spec)), getattr(err, "reason", err)) from err
    with response:
        resumed = have and getattr(response, "status", 200) == 206
        if not resumed:
            have = 0
        length = response.headers.get("Content-Length")
        total = have + int(length) if length is not None else None
        if total is not None and not spec.min_bytes <= total <= spec.max_bytes:
            raise DownloadError(say.wrong_size(total, spec.min_bytes, spec.max_bytes))
        bar = _progress(total, have) if progress else None
        try:
            with open(part, "ab" if resumed else "wb") as out:
                while True:
                    try:
                        chunk = response.read(CHUNK)
                    except OSError as err:
                        raise DownloadError(say.CUT_SHORT) from err
                    if not chunk:
                        break
                    out.write(chunk)
                    have += len(chunk)
                    if bar is not None:
                        bar.update(len(chunk))
                out.flush()
                os.fsync(out.fileno())
        finally:
            if bar is not None:
                bar.close()
    if total is not None and have != total:
        raise DownloadError(say.incomplete(have, total))
    return _verify(spec, part, have)


def _verify(spec: ModelSpec, part: Path, size: int) -> Path:
    if not spec.min_bytes <= size <= spec.max_bytes:
        part.unlink(missing_ok=True)
        raise DownloadError(say.wrong_size(size, spec.min_bytes, spec.max_bytes))
    digests = _expected_digests(spec)
    if digests and _sha256(part) not in digests:
        part.unlink(missing_ok=True)
        raise DownloadError(say.NOT_THE_MODEL)
    done = part.with_suffix("")
    os.replace(part, done)
    return done


def _progress(total: int | None, initial: int):  # type: ignore[no-untyped-def]
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="B", unit_scale=True, unit_divisor=1024, desc=say.PROGRESS)


def _extract(archive: Path, staging: Path, brought: bool = False) -> Path:
    """Unzip ``archive`` into ``staging``; the model's own folder in it (or ``staging``)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            for member in zf.namelist():
                resolved = (staging / member).resolve()
                if not str(resolved).startswith(str(staging.resolve())):
                    raise DownloadError(say.ODD_PATHS)
            zf.extractall(staging)  # checks each member's CRC: a damaged copy is refused here
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as err:
        raise DownloadError(say.not_a_zip(archive) if brought else say.NOT_A_ZIP) from err
    entries = [p for p in staging.iterdir()]
    root = entries[0] if len(entries) == 1 and entries[0].is_dir() else staging
    if not is_complete(root):
        raise DownloadError(say.NO_MODEL_IN_ZIP)
    return root


def unpack(archive: Path, target: Path) -> Path:
    """Unzip ``archive`` so that ``target`` appears complete or not at all."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".desempacando-", dir=target.parent))
    try:
        root = _extract(archive, staging)
        if target.exists():
            shutil.rmtree(target)
        os.replace(root, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


@dataclass(frozen=True)
class Installed:
    """What ``dudo modelo instalar`` did: where the model went and what it is."""

    path: Path
    published: bool
    """The file is the archive vosk publishes (its sha256 is one of ``SPANISH``'s)."""
    spanish: bool
    """Found without ``--modelo``: the published name, or another Spanish vosk model's."""


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def install_from(source: Path, folder: Path, loads: Callable[[Path], str | None] | None = None) -> Installed:
    """Install a model the user brought: the published ``.zip`` (or an unpacked
    model folder). It is unpacked beside its place, checked whole, and (with
    ``loads``, which returns a reason it cannot load) loaded by the recognizer
    before it replaces anything: a model folder either is complete or does not exist."""
    if source.is_dir():
        published = False
    elif source.is_file():
        published = _sha256(source) in _expected_digests(SPANISH)
    else:
        raise DownloadError(say.no_such_archive(source))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".instalando-", dir=folder))
    except OSError as err:
        raise DownloadError(say.cannot_write(folder, err)) from err
    try:
        if source.is_dir():
            if not is_complete(source):
                raise DownloadError(say.not_a_model(source))
            root = staging / source.name
            shutil.copytree(source, root)
        else:
            root = _extract(source, staging, brought=True)
        name = SPANISH.name if published else (root.name if root != staging else source.name.removesuffix(".zip"))
        if not re.fullmatch(r"[\w.+-]+", name) or name.startswith("."):
            name = SPANISH.name + "-traido"
        if loads is not None and (problem := loads(root)) is not None:
            log.warning("the model brought in %s does not load: %s", source, problem)
            raise DownloadError(say.does_not_load(source))
        target = folder / name
        if target.exists():
            shutil.rmtree(target)
        os.replace(root, target)
    except OSError as err:
        raise DownloadError(say.cannot_write(folder, err)) from err
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Installed(target, published, name == SPANISH.name or bool(SPANISH_NAME.match(name)))


def install(spec: ModelSpec, folder: Path, progress: bool = True) -> Path:
    """Download (resuming) and unpack ``spec`` into ``folder/spec.name``."""
    folder.mkdir(parents=True, exist_ok=True)
    part = folder / f"{spec.name}.zip.part"
    archive = download(spec, part, progress)
    try:
        return unpack(archive, folder / spec.name)
    finally:
        archive.unlink(missing_ok=True)


def status_lines() -> list[str]:
    """What `dudo modelo estado` says."""
    lines = []
    folder = models_dir()
    spanish = folder / SPANISH.name
    if (found := installed_spanish()) is not None:
        lines.append(say.installed(found))
    elif (folder / f"{SPANISH.name}.zip.part").exists():
        lines.append(say.HALF_DOWNLOADED)
    else:
        lines.append(say.not_installed(spanish))
    env = os.environ.get("DUDO_MODELO")
    if env:
        state = say.COMPLETE if is_complete(Path(env)) else say.INCOMPLETE
        lines.append(say.chosen_by_environment(env, state))
    return lines


def recognizer_problem(model: Path | None) -> str | None:
    """Why the recognizer cannot run here (a missing system library, a model
    that cannot be read), or None when vosk loads ``model`` (or, with none, vosk itself)."""
    from assistant.voice import recognizer

    try:
        if model is None:
            recognizer.vosk_module()
        else:
            recognizer.load_model(model, tuned=False)
    except recognizer.RecognizerError as err:
        return str(err)
    return None
