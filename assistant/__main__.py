"""`python -m assistant` runs the `dudo` command."""

from assistant.cli import main

main()
