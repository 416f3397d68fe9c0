"""Faults the table must know about are said in Spanish, named, and stop a
service that cannot referee with a status that says so; nothing is left behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

import numpy as np
import pytest

from assistant.voice.recognizer import why_vosk_fails
from assistant.voice.speaker import FOLDER_PREFIX, Speaker
from tests.test_cli import dudo
from tests.test_voice import korean_model, pulse  # noqa: F401  (the fixture)

ARM64_IMPORT_ERROR = (
    "cannot load library '/home/pi/dudo/.venv/lib/python3.11/site-packages/vosk/libvosk.so': "
    "libatomic.so.1: cannot open shared object file: No such file or directory"
)
"""What ``import vosk`` says on a bare Debian 12 arm64 (seen under qemu, before libatomic1)."""


def test_fault_a_missing_system_library_is_named_with_its_debian_package() -> None:
    err = why_vosk_fails(OSError(ARM64_IMPORT_ERROR))
    assert "libatomic.so.1" in str(err) and "sudo apt install libatomic1" in str(err)
    assert "/" not in err.spoken and "biblioteca" in err.spoken  # said aloud: no paths
    other = why_vosk_fails(OSError("libfoo.so.3: cannot open shared object file: No such file or directory"))
    assert "libfoo.so.3" in str(other) and "apt-file search libfoo.so.3" in str(other)


def broken_copy(tmp_path: Path) -> Path:
    """The Korean stand-in with ``am/final.mdl`` cut short (every other file linked)."""
    source, target = korean_model(), tmp_path / "roto"
    for path in source.rglob("*"):
        if path.is_file():
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            if path.relative_to(source) == Path("am/final.mdl"):
                dest.write_bytes(path.read_bytes()[:4096])
            else:
                dest.symlink_to(path)
    return target


def silence(path: Path, seconds: float = 1.0) -> Path:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(b"\0\0" * int(16000 * seconds))
    return path


@pytest.mark.vosk
def test_fault_a_corrupt_model_is_named_not_blamed_on_the_audio(tmp_path: Path) -> None:
    model = broken_copy(tmp_path)
    env = {"DUDO_MODELO": str(model), "DUDO_CACHE": str(tmp_path / "cache")}
    done = dudo("transcribir", str(silence(tmp_path / "s.wav")), env=env)
    assert done.returncode == 1
    assert f"El modelo de voz en {model} está dañado" in done.stderr and "dudo modelo descargar" in done.stderr
    assert "audio" not in done.stderr and "Failed" not in done.stderr and "Algo falló" not in done.stderr
    state = dudo("modelo", "estado", env=env)
    assert state.returncode == 1 and "está dañado" in state.stderr
    fine = dudo("modelo", "estado", env={**env, "DUDO_MODELO": str(korean_model())})
    assert fine.returncode == 0 and "carga bien" in fine.stdout


@pytest.mark.vosk
@pytest.mark.audio
def test_fault_a_service_with_a_corrupt_model_says_it_aloud_and_stops_with_status_3(pulse: str, tmp_path: Path) -> None:  # noqa: F811
    if not shutil.which("parec"):
        pytest.skip("hace falta parec (pulseaudio-utils)")
    model = broken_copy(tmp_path)
    recording = tmp_path / "sala.raw"
    with open(recording, "wb") as out:
        room = subprocess.Popen(["parec", "--device=dudo_prueba.monitor", "--format=s16le", "--rate=16000", "--channels=1"], stdout=out)
        try:
            time.sleep(0.3)
            done = dudo("jugar", "--jugadores", "ana,beto", env={
                "DUDO_MODELO": str(model), "DUDO_CACHE": str(tmp_path / "cache"), "INVOCATION_ID": "prueba"})
        finally:
            room.terminate()
            room.wait(5)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("está dañado") == 1 and "Failed" not in done.stderr
    audio = np.frombuffer(recording.read_bytes(), dtype=np.int16).astype(np.float32) / 32768
    loud = np.sqrt(np.mean(audio[: len(audio) // 160 * 160].reshape(-1, 160) ** 2, axis=1)) > 0.01  # 10 ms blocks
    assert loud.sum() * 0.01 > 2.0, "the table never heard why"  # seconds of speech at the speaker


def folders() -> set[Path]:
    return set(Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}{os.getpid()}-*"))


def test_fault_a_speaker_leaves_no_folder_behind() -> None:
    before = folders()
    speaker = Speaker(play=False)
    speaker.earcon("aceptada")
    assert len(folders() - before) == 1
    speaker.close()
    assert folders() == before
    # a program that never closes its speaker still leaves nothing at exit
    script = "from assistant.voice.speaker import Speaker; import os; s = Speaker(play=False); s.earcon('aceptada'); print(os.getpid())"
    pid = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()
    assert not list(Path(tempfile.gettempdir()).glob(f"{FOLDER_PREFIX}{pid}-*"))


def test_fault_folders_of_killed_processes_are_swept_and_live_ones_kept() -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{dead.pid}-"))
    (stale / "r1.wav").write_bytes(b"RIFF")
    alive = subprocess.Popen(["sleep", "30"])
    try:
        live = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{alive.pid}-"))
        Speaker(play=False).close()
        assert not stale.exists() and live.exists()
    finally:
        alive.kill()
        shutil.rmtree(live, ignore_errors=True)



def test_fault_raw_library_lines_go_to_the_log_not_the_terminal(tmp_path: Path) -> None:
    """What C code (PortAudio, ALSA) and child processes write to descriptor 2
    lands in the log; Python's own messages for the person still reach the terminal."""
    log = tmp_path / "dudo.log"
    script = (
        "import os, subprocess, sys\n"
        "from pathlib import Path\n"
        "from assistant.voice import stderr\n"
        f"stderr.libraries_to(Path({str(log)!r}))\n"
        "os.write(2, b\"ALSA lib pcm.c:8570:(snd_pcm_recover) underrun occurred\\n\")\n"
        "subprocess.run(['sh', '-c', 'echo \"Expression x failed in pa_linux_alsa.c\" >&2'], check=True)\n"
        "print('[para la persona en la terminal]', file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stderr == "[para la persona en la terminal]\n"
    kept = log.read_text("utf-8")
    assert "underrun occurred" in kept and "pa_linux_alsa.c" in kept


def test_fault_echo_cancel_lost_or_back_with_the_microphone_is_said(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A sound server that comes back without its echo canceller (or with it):
    when the microphone returns the referee looks at the room again, says the
    change once, and the listener follows it (the real room and pactl, the Korean model)."""
    from assistant.config import TableConfig
    from assistant.voice.microphone import BACK
    from assistant.voice_io import VoiceIO
    from scripts import sala

    if not sala.available() or not shutil.which("espeak-ng"):
        pytest.skip("PulseAudio o espeak-ng no están instalados (scripts/instalar.sh --test los instala)")
    room = sala.start()
    try:
        monkeypatch.setenv("PULSE_SERVER", room.server)
        monkeypatch.delenv("PULSE_SINK", raising=False)
        monkeypatch.delenv("PULSE_SOURCE", raising=False)
        io = VoiceIO(korean_model(), TableConfig(players=("ana", "beto")))
        try:
            assert io.duplex
            capsys.readouterr()
            monkeypatch.setenv("PULSE_SOURCE", "room.monitor")  # the raw microphone: the canceller is gone
            io._microphone(BACK)
            said = capsys.readouterr().out
            assert "Volvió el micrófono. Ojo: ya no los oigo mientras hablo" in said
            assert not io.duplex
            io._microphone(BACK)  # nothing changed: only that it is back
            assert capsys.readouterr().out.strip() == "Volvió el micrófono."
            monkeypatch.delenv("PULSE_SOURCE")
            io._microphone(BACK)
            assert "Ahora los oigo aunque esté hablando." in capsys.readouterr().out
            assert io.duplex
        finally:
            io.close()
    finally:
        room.stop()


def test_startup_what_a_player_says_while_the_model_loads_is_heard_once_it_is_in(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The referee greets before the model is in (it takes seconds, most of a
    start): the microphone is open from the start and keeps what is said, and
    the recognizer takes it when ready. The real room, the Korean stand-in,
    loaded 2.5 s late here so that the player surely speaks first."""
    from assistant import voice_io
    from assistant.config import TableConfig
    from assistant.voice import recognizer
    from scripts import sala

    if not sala.available() or not shutil.which("espeak-ng") or not shutil.which("paplay"):
        pytest.skip("PulseAudio o espeak-ng no están instalados (scripts/instalar.sh --test los instala)")
    real = recognizer.load_model

    def late(path: Path, tuned: bool = True) -> object:
        time.sleep(2.5)
        return real(path, tuned)

    monkeypatch.setattr(recognizer, "load_model", late)
    word = tmp_path / "hana.wav"
    subprocess.run(["espeak-ng", "-v", "ko", "-s", "150", "-w", str(tmp_path / "raw.wav"), "하나"], check=True)
    subprocess.run(["sox", str(tmp_path / "raw.wav"), "-r", "16000", "-c", "1", "-b", "16", str(word)], check=True)
    room = sala.start(echo_cancel=False)
    try:
        monkeypatch.setenv("PULSE_SERVER", room.server)
        monkeypatch.delenv("PULSE_SINK", raising=False)
        monkeypatch.delenv("PULSE_SOURCE", raising=False)
        started = time.monotonic()
        io = voice_io.VoiceIO(korean_model(), TableConfig(players=("ana", "beto")))
        try:
            ready_in = time.monotonic() - started
            subprocess.run(["paplay", "-d", "player", str(word)], check=True)
            spoken_before_the_model = not io._building.done()
            heard = next(io.heard())
            assert spoken_before_the_model, "the model was in before the player spoke: nothing shown"
            assert ready_in < 2.0, f"{ready_in:.2f} s to greet: the greeting waited for something"
            assert heard.text.strip(), "what was said while the model loaded was lost"
        finally:
            io.close()
    finally:
        room.stop()
