"""Spanish at the table: the lexicon, the parser, the recognizer grammar."""

from assistant.speech.commands import Command, Unknown
from assistant.speech.lexicon import Lexicon, load
from assistant.speech.parser import Parser

__all__ = ["Command", "Lexicon", "Parser", "Unknown", "load"]
