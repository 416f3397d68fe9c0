"""Spanish words as data (es.toml); installed as ``assistant.lexicon`` so a wheel carries them."""
