#!/usr/bin/env bash
# Run zarkcity locally from a fresh clone: venv, dependencies, database (SQLite under var/),
# demo players and game, then the development server on 127.0.0.1:${PORT:-8000}.
# No PostgreSQL, Redis or mail server needed; emails land in var/mail, listed at /dev/mail/.
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
source scripts/icu.sh
echo "==> installing requirements-dev.txt"
.venv/bin/python -m pip install -qq --disable-pip-version-check -r requirements-dev.txt

mkdir -p var/broker  # SQLite database, dev mailbox and the server-less Celery broker live here
echo "==> migrating the database"
.venv/bin/python manage.py migrate --no-input -v 0
echo "==> demo players and game"
.venv/bin/python manage.py demo
if [ "${NO_WORKER:-0}" != 1 ]; then
  # The real Celery worker with beat inside it (emails, reminders, timeouts, digests), over the
  # server-less filesystem broker in var/broker (Redis when REDIS_URL is set). NO_WORKER=1 skips it.
  # Restarted whenever it exits, with a line on this terminal (scripts/supervise.sh).
  echo "==> Celery worker + beat in the background (log: var/celery.log; sent mail: /dev/mail/)"
  : >var/celery.log
  bash scripts/supervise.sh "the Celery worker + beat" var/celery.log \
    .venv/bin/celery -A zarkcity_site worker --beat --pool solo --concurrency 1 --loglevel INFO \
    --without-mingle --without-gossip &
  worker_pid=$!
  trap 'kill "$worker_pid" 2>/dev/null || true' EXIT
fi
if [ "${NO_RECEIVER:-0}" != 1 ]; then
  # The SMTP receiver for reply addresses (moves by email, docs/email-moves.md) on 127.0.0.1:${SMTP_PORT:-2525};
  # the dev mailbox's reply form needs none of it. NO_RECEIVER=1 skips it.
  echo "==> SMTP receiver for replies on 127.0.0.1:${SMTP_PORT:-2525} (log: var/receiver.log)"
  : >var/receiver.log
  bash scripts/supervise.sh "the SMTP receiver" var/receiver.log \
    .venv/bin/python manage.py mail_receiver --host 127.0.0.1 --port "${SMTP_PORT:-2525}" &
  receiver_pid=$!
  trap 'kill "${worker_pid:-}" "$receiver_pid" 2>/dev/null || true' EXIT
fi
echo "==> serving on http://127.0.0.1:${PORT}/ (Ctrl-C stops)"
.venv/bin/python manage.py runserver "127.0.0.1:${PORT}"
