#!/usr/bin/env bash
# Keep one background process running: restart it whenever it exits and say so on this terminal.
# Usage: scripts/supervise.sh NAME LOGFILE COMMAND [ARGS...]   (output appended to LOGFILE)
# scripts/serve.sh runs the Celery worker + beat under it: without it a worker that died left the
# site serving while no email, reminder or timeout went out, and nothing said so.
# SIGTERM stops the process and this loop. RESTART_DELAY (seconds, default 3) paces a crash loop.
set -uo pipefail
name=$1 log=$2
shift 2
delay=${RESTART_DELAY:-3}
child=

stop() {
  [ -n "$child" ] && kill "$child" 2>/dev/null && wait "$child" 2>/dev/null
  exit 0
}
trap stop TERM INT

while true; do
  "$@" >>"$log" 2>&1 &
  child=$!
  wait "$child"
  status=$?
  child=
  {
    echo "!!> $name exited with status $status at $(date '+%H:%M:%S'); restarting in ${delay}s. Last lines of $log:"
    tail -n 5 "$log" | sed 's/^/    /'
  } >&2
  sleep "$delay" &
  wait $!
done
