"""Does the sound server take the referee's own voice out of the microphone?

Barge-in needs the microphone signal with the referee's voice removed. We never
cancel echo ourselves: PulseAudio's and PipeWire's ``module-echo-cancel``
(WebRTC's canceller) does it, given the voice played through its sink and the
microphone read through its source. So the referee listens while it talks only
when both defaults of the sound server are the two ends of one echo canceller
(``scripts/instalar_servicio.sh`` sets that up on the Pi); anything else is
half duplex.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from assistant.voice import messages as say

SERVER_DEVICES = ("pulse", "default", "pipewire")
"""PortAudio (ALSA) devices that are the sound server's defaults."""
PACTL_TIMEOUT = 3.0


@dataclass(frozen=True)
class Room:
    duplex: bool
    """The microphone hears the players, not the referee: it can listen while it talks."""
    why: str
    """For the log: what was found."""


def _pactl(*args: str) -> Any:
    result = subprocess.run(
        ["pactl", "--format=json", *args], capture_output=True, text=True, timeout=PACTL_TIMEOUT, check=True
    )
    return json.loads(result.stdout)


def _modules() -> dict[int, str]:
    """Loaded modules by index (pactl's JSON leaves the index out)."""
    out = subprocess.run(
        ["pactl", "list", "short", "modules"], capture_output=True, text=True, timeout=PACTL_TIMEOUT, check=True
    ).stdout
    return {int(f[0]): f[1] for f in (line.split("\t") for line in out.splitlines()) if len(f) > 1 and f[0].isdigit()}


def _default(kind: str) -> str:
    env = os.environ.get("PULSE_SOURCE" if kind == "source" else "PULSE_SINK")
    if env:
        return env
    return subprocess.run(
        ["pactl", f"get-default-{kind}"], capture_output=True, text=True, timeout=PACTL_TIMEOUT, check=True
    ).stdout.strip()


def _echo_cancel(device: dict[str, Any], modules: dict[int, str]) -> str | None:
    """A key naming the canceller ``device`` is an end of, or None."""
    owner = device.get("owner_module")
    if isinstance(owner, int) and modules.get(owner) == "module-echo-cancel":
        return f"module {owner}"
    props = device.get("properties") or {}
    driver = str(device.get("driver", ""))
    if "echo-cancel" in driver or "echo_cancel" in driver:
        return f"module {owner}"
    node = str(props.get("node.name", "")) + " " + str(props.get("node.group", ""))
    group = props.get("node.group") or props.get("node.link-group")
    if "echo-cancel" in node and group:  # PipeWire's own module: its nodes share a group
        return str(group)
    return None


def sound_room(input_device: str | None, output_device: str | None) -> Room:
    """Full duplex only when the microphone and the speaker are the sound
    server's defaults and these are the source and the sink of one echo
    canceller."""
    chosen = [d for d in (input_device, output_device) if d]
    if any(d.lower() not in SERVER_DEVICES for d in chosen):
        return Room(False, say.ROOM_HAND_PICKED)
    if shutil.which("pactl") is None:
        return Room(False, say.ROOM_NO_PACTL)
    try:
        source, sink = _default("source"), _default("sink")
        modules = _modules()
        sources = {s["name"]: s for s in _pactl("list", "sources")}
        sinks = {s["name"]: s for s in _pactl("list", "sinks")}
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, TypeError) as err:
        return Room(False, say.room_unreachable(err))
    if source not in sources or sink not in sinks:
        return Room(False, say.room_missing(source, sink))
    heard, said = _echo_cancel(sources[source], modules), _echo_cancel(sinks[sink], modules)
    if heard is None:
        return Room(False, say.room_no_canceller(source))
    if said != heard:
        return Room(False, say.room_other_sink(source, sink))
    return Room(True, say.room_cancels(source, sink))
