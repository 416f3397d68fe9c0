"""The command line in Spanish: typer's and click's own words (help titles,
usage, errors) said in Spanish, and nothing else.

typer looks some strings up through gettext; click writes others as literals
or f-strings, so those are patched where click offers no hook. typer imports
its rich formatting only to print help or an error: the Spanish goes in when it
loads, so a command that runs never pays for rich.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import re
import sys
from typing import Any

try:  # typer >= 0.29 vendors click
    from typer import _click as _vendored_click  # type: ignore[attr-defined]

    click: Any = _vendored_click
except ImportError:  # pragma: no cover - older typer with click installed
    import click as _plain_click  # type: ignore[import-not-found]

    click = _plain_click

_TYPER_ES = {
    # the strings typer looks up through gettext; click's own are literals (patched below)
    "(dynamic)": "(dinámico)",
    "Aborted!": "Cancelado.",
    "default: {default}": "por omisión: {default}",
    "required": "obligatorio",
    "env var: {var}": "variable: {var}",
    "Arguments": "Argumentos",
    "Options": "Opciones",
    "Commands": "Comandos",
    "Missing command.": "Falta el comando.",
    "No such command {name!r}.": "No existe el comando {name!r}.",
}


def _spanish(message: str) -> str:
    return _TYPER_ES.get(message, message)


def install() -> None:
    """Put the Spanish in: once, before the app is built."""
    import typer.core

    typer.core._ = _spanish  # type: ignore[attr-defined]
    # click's help option and usage prefix are literals, not gettext calls
    original_help_option = click.core.Command.get_help_option

    def help_option_es(self: Any, ctx: Any) -> Any:
        option = original_help_option(self, ctx)
        if option is not None:
            option.help = "Muestra esta ayuda y sale."
        return option

    click.core.Command.get_help_option = help_option_es  # click offers no hook for this text
    original_usage = click.formatting.HelpFormatter.write_usage

    def usage_es(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        args = args.replace("[OPTIONS]", "[OPCIONES]").replace("COMMAND [ARGS]...", "COMANDO [ARGUMENTOS]...")
        original_usage(self, prog, args, "Uso: " if prefix is None else prefix)

    click.formatting.HelpFormatter.write_usage = usage_es
    # typer imports its rich formatting only to print help or an error: the
    # Spanish goes in when it loads, so a command that runs never pays for rich
    if "typer.rich_utils" in sys.modules:
        _rich_in_spanish(sys.modules["typer.rich_utils"])
    else:
        sys.meta_path.insert(0, _WhenLoaded("typer.rich_utils", _rich_in_spanish))


def _rich_in_spanish(rich_utils: Any) -> None:
    rich_utils.OPTIONS_PANEL_TITLE = "Opciones"
    rich_utils.ARGUMENTS_PANEL_TITLE = "Argumentos"
    rich_utils.COMMANDS_PANEL_TITLE = "Comandos"
    rich_utils.ERRORS_PANEL_TITLE = "Error"
    rich_utils.DEFAULT_STRING = "[por omisión: {}]"
    rich_utils.REQUIRED_LONG_STRING = "[obligatorio]"
    rich_utils.ENVVAR_STRING = "[variable: {}]"
    rich_utils.ABORTED_TEXT = "Cancelado."
    rich_utils.RICH_HELP = "Prueba [blue]'{command_path} {help_option}'[/] para ver la ayuda."
    original_error = rich_utils.rich_format_error

    def error_es(err: Any) -> None:
        said = _error_es(err.format_message())
        err.format_message = lambda: said  # click builds its messages in English, as f-strings
        original_error(err)

    rich_utils.rich_format_error = error_es


class _WhenLoaded(importlib.abc.MetaPathFinder):
    """Runs ``then(module)`` right after the module ``name`` is first imported."""

    def __init__(self, name: str, then: Any) -> None:
        self.name = name
        self.then = then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        run, then = spec.loader.exec_module, self.then

        def exec_module(module: Any) -> None:
            run(module)
            then(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


_CLICK_ERRORS: list[tuple[str, Any]] = [
    # typer adds the closest commands (difflib) to click's "No such command", in English
    (r"No existe el comando '(.+?)'\. Did you mean (.+)\?", lambda m: f"No existe el comando '{m[1]}'. ¿Quisiste decir {m[2].replace(', ', ' o ')}?"),
    (r"No such option: (\S+) \(Possible options: (.+)\)", lambda m: f"No existe la opción {m[1]}. ¿Quisiste decir {m[2].replace(', ', ' o ')}?"),
    (r"No such option: (\S+)", lambda m: f"No existe la opción {m[1]}."),
    (r"Invalid value for (.+?): (?:Input should be a valid integer.*|'.*' is not a valid integer.*)",
     lambda m: f"{m[1]} tiene que ser un número entero."),
    (r"Invalid value for (.+?): (-?\d+) is not in the range (\d+)<=x<=(\d+)\.",
     lambda m: f"{m[1]} tiene que ir de {m[3]} a {m[4]} (vino {m[2]})."),
    (r"Invalid value for (.+?): Input should be less than or equal to (-?\d+)", lambda m: f"{m[1]} puede ser {m[2]} como mucho."),
    (r"Invalid value for (.+?): Input should be greater than or equal to (-?\d+)", lambda m: f"{m[1]} tiene que ser al menos {m[2]}."),
    (r"Invalid value for (.+?): (?:Value error, )?'(.*)' is not one of (.*?)\.?",
     lambda m: f"{m[1]} tiene que ser {m[3].replace(', ', ' o ')} (vino '{m[2]}')."),
    (r"Invalid value for (.+?): (.*)", lambda m: f"Valor inválido para {m[1]}: {m[2]}"),
    (r"Option '(.+)' requires an argument\.", lambda m: f"A la opción '{m[1]}' le falta su valor."),
    (r"Missing argument '(.+)'\.", lambda m: f"Falta el argumento '{m[1]}'."),
    (r"Missing option '(.+)'\.", lambda m: f"Falta la opción '{m[1]}'."),
    (r"Got unexpected extra argument(?:s|\(s\))? \((.*)\)", lambda m: f"Sobra: {m[1]}."),
]


def _error_es(message: str) -> str:
    """click's English usage errors, said in Spanish."""
    for pattern, spanish in _CLICK_ERRORS:
        match = re.fullmatch(pattern, message, flags=re.DOTALL)
        if match:
            return str(spanish(match))
    return message
