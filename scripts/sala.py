"""A table's room built of PulseAudio null sinks, for tests and benchmarks.

The referee plays into the echo canceller's sink ``ec_spk`` (master: ``spk``,
the table speaker); a loopback carries ``spk`` into ``room`` (the air of the
table: the speaker's echo reaches the microphone); a player speaks into
``room`` (or into ``player``, looped into ``room``, whose monitor then holds
the player alone: benchmarks time the end of speech there); the referee
listens on the canceller's source ``ec_mic`` (master: ``room``'s monitor, the
microphone). A private server: its own runtime folder,
stopped by its pid.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

AEC_ARGS = "analog_gain_control=0 digital_gain_control=0 extended_filter=1 drift_compensation=1"
"""As the Pi installer sets it (scripts/eco/dudo-eco.pa)."""


ECHO_PATH_VOLUME = 70
"""The speaker's voice reaches the microphone at 70 % (about -9 dB) of a player's
talking into it: a table speaker a little further from the microphone than the players."""


@dataclass
class Room:
    runtime: str
    socket: Path

    @property
    def server(self) -> str:
        """For ``PULSE_SERVER``."""
        return f"unix:{self.socket}"

    def pactl(self, *args: str) -> str:
        return subprocess.run(["pactl", *args], env=_env(self.runtime), check=True, capture_output=True, text=True).stdout.strip()

    def stop(self) -> None:
        pid = Path(self.runtime) / "pulse" / "pid"
        if pid.exists():
            try:
                os.kill(int(pid.read_text().strip()), signal.SIGTERM)
            except (OSError, ValueError):
                pass
        shutil.rmtree(self.runtime, ignore_errors=True)


def available() -> bool:
    return all(shutil.which(tool) for tool in ("pulseaudio", "pactl", "paplay"))


def _env(runtime: str) -> dict[str, str]:
    env = {**os.environ, "XDG_RUNTIME_DIR": runtime}
    for name in ("PULSE_SERVER", "PULSE_SINK", "PULSE_SOURCE"):
        env.pop(name, None)
    return env


def start(echo_cancel: bool = True) -> Room:
    """The room, with the canceller's ends as the defaults (or, without
    ``echo_cancel``, ``spk`` and ``room``'s monitor: a speaker the microphone hears)."""
    runtime = tempfile.mkdtemp(prefix="dudo-pa-")  # short: a unix socket path has ~100 bytes
    subprocess.run(
        ["pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "--disallow-exit", "--load=module-native-protocol-unix",
         "--load=module-null-sink sink_name=spk rate=16000", "--load=module-null-sink sink_name=room rate=16000",
         "--load=module-null-sink sink_name=player rate=16000"],
        env=_env(runtime), check=True, capture_output=True,
    )
    room = Room(runtime, Path(runtime) / "pulse" / "native")
    deadline = time.monotonic() + 10
    while not room.socket.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    # explicit ends that a later change of defaults must not move
    for source in ("spk.monitor", "player.monitor"):
        room.pactl("load-module", "module-loopback", f"source={source}", "sink=room", "latency_msec=20",
                   "source_dont_move=true", "sink_dont_move=true")
    room.pactl("set-sink-volume", "spk", f"{ECHO_PATH_VOLUME}%")
    if echo_cancel:
        room.pactl("load-module", "module-echo-cancel", "source_master=room.monitor", "sink_master=spk", "aec_method=webrtc",
                   f'aec_args="{AEC_ARGS}"', "source_name=ec_mic", "sink_name=ec_spk")
        room.pactl("set-default-sink", "ec_spk")
        room.pactl("set-default-source", "ec_mic")
    else:
        room.pactl("set-default-sink", "spk")
        room.pactl("set-default-source", "room.monitor")
    return room


class Recorder:
    """What reaches a sink, recorded from its monitor (``parec``) while it runs."""

    RATE = 16000

    def __init__(self, room: Room, sink: str = "spk") -> None:
        self.path = Path(room.runtime) / f"grabado-{time.monotonic_ns()}.raw"
        self._out = open(self.path, "wb")  # noqa: SIM115 (closed in stop)
        self._process = subprocess.Popen(
            ["parec", f"--device={sink}.monitor", "--format=s16le", f"--rate={self.RATE}", "--channels=1", "--latency-msec=20"],
            stdout=self._out, env=_env(room.runtime),
        )

    def stop(self) -> np.ndarray:
        """The recording, as floats of full scale."""
        self._process.terminate()
        self._process.wait(5)
        self._out.close()
        return np.frombuffer(self.path.read_bytes(), dtype=np.int16).astype(np.float32) / 32768


BLOCK = 0.01
"""Seconds per loudness step when sounds are told apart."""


def loudness(audio: np.ndarray, rate: int) -> np.ndarray:
    """RMS every ``BLOCK`` seconds."""
    step = int(rate * BLOCK)
    usable = audio[: len(audio) // step * step].astype(np.float32)
    return np.sqrt(np.mean(usable.reshape(-1, step) ** 2, axis=1)) if len(usable) else np.zeros(0, np.float32)


def sounds(audio: np.ndarray, rate: int, floor: float, bridge: float = 0.1) -> list[float]:
    """The length in seconds of each sound in ``audio``: spans louder than
    ``floor`` (RMS of full scale), joined across quiet gaps shorter than ``bridge``."""
    loud = loudness(audio, rate) > floor
    spans: list[list[int]] = []
    for i, on in enumerate(loud):
        if not on:
            continue
        if spans and i - spans[-1][1] <= bridge / BLOCK:
            spans[-1][1] = i + 1
        else:
            spans.append([i, i + 1])
    return [(end - start) * BLOCK for start, end in spans]


WHOLE_FLOOR = 0.01
"""RMS (of full scale) above which a 10 ms step is sound, in a WAV and at the speaker alike."""
SHORT_REPLY = "Dudo."


@dataclass
class Whole:
    """Sounds played one by one and what reached the speaker of each."""

    plan: list[str]
    lengths: dict[str, float]
    heard: list[float]

    @property
    def short(self) -> list[tuple[str, float, float]]:
        """(what, heard, whole) of each sound that came out more than 30 ms short."""
        if len(self.heard) != len(self.plan):
            return [("?", len(self.heard), len(self.plan))]
        return [(w, round(h, 2), self.lengths[w]) for w, h in zip(self.plan, self.heard, strict=True) if h < self.lengths[w] - 0.03]

    @property
    def whole(self) -> int:
        return 0 if len(self.heard) != len(self.plan) else len(self.plan) - len(self.short)


def _loud_length(path: Path) -> float:
    import wave

    with wave.open(str(path), "rb") as wav:
        rate = wav.getframerate()
        audio = np.frombuffer(wav.readframes(wav.getnframes()), dtype=np.int16).astype(np.float32) / 32768
    return sum(sounds(audio, rate, WHOLE_FLOOR))


def play_whole(echo_cancel: bool, earcons_each: int, replies: int) -> Whole:
    """Play every earcon ``earcons_each`` times and a short reply ``replies``
    times through the referee's ``Speaker`` into a room (with or without the
    echo canceller), each alone, and measure what reached the speaker ``spk``."""
    from assistant.voice import earcons
    from assistant.voice.speaker import Speaker

    room = start(echo_cancel=echo_cancel)
    before = os.environ.get("PULSE_SERVER")
    os.environ["PULSE_SERVER"] = room.server
    try:
        room.pactl("set-sink-volume", "spk", "100%")  # the speaker is measured here, not the echo
        folder = Path(tempfile.mkdtemp(dir=room.runtime))
        lengths = {name: _loud_length(earcons.write(name, folder)) for name in earcons.NAMES}
        speaker = Speaker()
        lengths[SHORT_REPLY] = _loud_length(speaker.save(SHORT_REPLY, folder / "corta.wav"))
        plan = [name for _ in range(earcons_each) for name in earcons.NAMES] + [SHORT_REPLY] * replies
        recorder = Recorder(room)
        time.sleep(0.3)
        for what in plan:
            if what == SHORT_REPLY:
                speaker.say(what)
            else:
                speaker.earcon(what)
            speaker.wait(5)
            time.sleep(0.3)  # apart, so each is measured alone
        time.sleep(0.5)
        heard = sounds(recorder.stop(), Recorder.RATE, WHOLE_FLOOR)
        speaker.close()
        return Whole(plan, lengths, heard)
    finally:
        if before is None:
            os.environ.pop("PULSE_SERVER", None)
        else:
            os.environ["PULSE_SERVER"] = before
        room.stop()
