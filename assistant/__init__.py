"""Dudo voice referee: an offline referee for the Chilean dice game."""

__version__ = "0.1.0"
