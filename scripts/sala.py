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
