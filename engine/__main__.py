"""`python -m engine ...`: the engines' command line (engine/cli.py), every game through the registry."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
