"""`python -m engine ...`: the Zark City engine's command line (engine/zarkcity/cli.py)."""

from __future__ import annotations

import sys

from .zarkcity.cli import main

if __name__ == "__main__":
    sys.exit(main())
