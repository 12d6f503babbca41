"""Check that requirements.lock (hashes for every package, from scripts/lock.sh) still matches the
pins of requirements-dev.txt and requirements.txt: same packages, same versions. Standard library only.
Exit 1 with what differs; CI runs it right after installing from the lock."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    """name -> version for every `name==version` line, following `-r other.txt`."""
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("-r "):
            found |= pins(path.parent / line[3:].strip())
        elif match := PIN.match(line):
            found[normal(match[1])] = match[3]
    return found


def differences(requirements: Path, lock: Path) -> list[str]:
    wanted, locked = pins(requirements), pins(lock)
    problems = [f"{name}=={version} is not in {lock.name}" for name, version in wanted.items() if name not in locked]
    problems += [
        f"{name}=={version} but {lock.name} has {locked[name]}"
        for name, version in wanted.items()
        if name in locked and locked[name] != version
    ]
    return problems


def main() -> int:
    problems = differences(ROOT / "requirements-dev.txt", ROOT / "requirements.lock")
    for problem in problems:
        print(f"check_lock: {problem}", file=sys.stderr)
    if problems:
        print("check_lock: regenerate it with `bash scripts/lock.sh`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
