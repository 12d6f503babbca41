#!/usr/bin/env bash
# Run the whole test suite: venv, dependencies, Debian's Chromium for the browser tests (when we are
# root and apt is there), then pytest with any arguments passed through (e.g. -q -x, -k name).
# Exit code: pytest's; "no tests collected" (5) counts as a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
source scripts/icu.sh
.venv/bin/python -m pip install -qq --disable-pip-version-check -r requirements-dev.txt

if [ ! -x /usr/bin/chromium ]; then  # the browser tests drive this one (tests/browser/conftest.py)
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Debian's chromium for the browser tests"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; then
      echo "warning: could not install chromium; browser tests will skip" >&2
    fi
  else
    echo "note: chromium is not installed (and we are not root with apt): browser tests will skip" >&2
  fi
fi

if ! .venv/bin/python -c "import cairosvg" >/dev/null 2>&1; then
  # cairosvg (the board PNG in turn emails) needs Debian's libcairo2; the base image has it.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Debian's libcairo2 for cairosvg"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2 >/dev/null || true
  fi
fi

if ! .venv/bin/python -c "from notifications.librsvg import available; assert available()" >/dev/null 2>&1; then
  # librsvg draws the board PNG five times faster than cairosvg (docs/dependencies.md); without it the
  # emails fall back to cairosvg and the tests that compare the two skip.
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing Debian's librsvg2-2 for the board PNG"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-2 >/dev/null || true
  fi
fi

# The suite's emails, broker messages and mailbox go to a throw-away folder, not the var/ that
# `scripts/serve.sh` uses: a dev worker must never pick up a test's leftover messages.
if [ -z "${ZARKCITY_VAR_DIR:-}" ]; then
  ZARKCITY_VAR_DIR=$(mktemp -d -t zarkcity-test-XXXXXX)
  export ZARKCITY_VAR_DIR
  trap 'rm -rf "$ZARKCITY_VAR_DIR"' EXIT
fi
status=0
.venv/bin/python -m pytest "$@" || status=$?
if [ "$status" = 5 ]; then
  echo "error: pytest collected no tests" >&2
  exit 1
fi
exit "$status"
