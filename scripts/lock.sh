#!/usr/bin/env bash
# Regenerate requirements.lock: every package of requirements-dev.txt (which includes requirements.txt)
# and everything they pull in, each pinned with the sha256 of every file PyPI has for it.
# Run after changing a requirements file; .ci/run installs from the lock with --require-hashes and
# scripts/check_lock.py fails CI while a pin in requirements*.txt is missing from it.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(mktemp -d -t zarkcity-piptools-XXXXXX)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install -qq --disable-pip-version-check pip-tools==7.6.2
"$tools/bin/pip-compile" --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url \
  --no-emit-find-links --no-emit-trusted-host --output-file requirements.lock requirements-dev.txt
# pip-compile writes the command it ran with our temporary path in it: say how to run it instead.
sed -i 's|^#    pip-compile .*|#    bash scripts/lock.sh|' requirements.lock
echo "requirements.lock: $(grep -c '^[a-z0-9].*==' requirements.lock) packages"
