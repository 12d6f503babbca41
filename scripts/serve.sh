#!/usr/bin/env bash
# Run zarkcity locally from a fresh clone: venv, dependencies, database (SQLite under var/),
# demo players and game, then the development server on 127.0.0.1:${PORT:-8000}.
# No PostgreSQL, Redis or mail server needed; emails are printed on this terminal.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
PORT=${PORT:-8000}
# Links in emails and the demo's printed address point at this server unless told otherwise.
export ZARKCITY_SITE_URL=${ZARKCITY_SITE_URL:-http://127.0.0.1:${PORT}}

if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
echo "==> installing requirements-dev.txt"
.venv/bin/python -m pip install -qq --disable-pip-version-check -r requirements-dev.txt

mkdir -p var/broker  # SQLite database, dev mailbox and the server-less Celery broker live here
echo "==> migrating the database"
.venv/bin/python manage.py migrate --no-input -v 0
echo "==> demo players and game"
.venv/bin/python manage.py demo
echo "==> serving on http://127.0.0.1:${PORT}/ (Ctrl-C stops)"
exec .venv/bin/python manage.py runserver "127.0.0.1:${PORT}"
