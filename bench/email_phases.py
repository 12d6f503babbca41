"""Where a turn email's CPU time goes: the worker's delivery of each email (claim, re-check, build, send over
SMTP, record) run in this process, one thread, each phase's thread CPU time summed and printed per email.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/email_phases.py \
        [--games 60] [--rounds 2] [--boards midgame|start] [--database NAME] [--keep]

The games are bench/notifications.py's (--boards midgame: boards of 30 to 40 cards, an even mix; start: turn 1,
2 cards). Each round plays one turn in every game with the outbox's queue switched off, then delivers each
new turn email by calling notifications.delivery.deliver, as the worker's task does, to an aiosmtpd sink in
a process of its own. A phase's time includes the phases inside it (the picture inside build_message), so
the lines do not add up; "email" is the whole deliver call. Thread CPU time, not wall time: what the load
on a shared machine inflates least. No Celery here: bench/notifications.py measures the worker itself.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if not __package__:  # run as a script: import from the project root, not bench/
    sys.path[0] = str(ROOT)

from bench import common  # noqa: E402

SPENT: defaultdict[str, float] = defaultdict(float)
CALLS: Counter[str] = Counter()


def timed(owner: Any, name: str, label: str) -> None:
    """Replace owner.name by a wrapper adding its thread CPU time to SPENT[label]."""
    function = getattr(owner, name)

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[label] += time.thread_time() - started
            CALLS[label] += 1

    setattr(owner, name, wrapper)


def time_phases() -> None:
    from notifications import delivery, emails, librsvg, outgoing, pictures, selectors

    for owner, name, label in (
        (delivery, "claim", "claim: UPDATE, then the row, recipient, game and seats"),
        (delivery, "why_not", "re-check (why_not)"),
        (delivery, "build_message", "build the message (all below)"),
        (emails, "table", "  table: view, clocks, players"),
        (selectors, "moves_since_last_turn", "  moves since their last turn"),
        (emails, "step", "  step (legal moves)"),
        (emails, "board_png", "  board picture: SVG and PNG"),
        (pictures, "board_png", "    PNG (librsvg reads and draws, encode)"),
        (librsvg, "_render", "      librsvg draws (and encodes, below)"),
        (librsvg, "encode", "        PNG encoding"),
        (emails, "render_to_string", "  templates (text and HTML)"),
        (emails, "_reply_to", "  reply address (token INSERT)"),
        (emails.Message, "message", "MIME tree (Message.message)"),
        (outgoing, "send", "send: MIME to bytes and SMTP"),
        (delivery, "record_sent", "record sent (UPDATE)"),
    ):
        timed(owner, name, label)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games, so emails a round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds (the first warms the process up)")
    parser.add_argument("--boards", default="midgame", choices=["midgame", "start"], help="as bench/notifications.py")
    common.add_database_arguments(parser)
    args = parser.parse_args()
    common.run_in_own_database("email_phases", args, bench)


def bench(args: argparse.Namespace) -> None:
    with common.smtp_sink():
        common.set_up_django()
        rounds(args)


def rounds(args: argparse.Namespace) -> None:
    from bench import notifications as emails_bench
    from notifications import delivery
    from notifications import services as notify
    from notifications.models import Notification

    games = emails_bench.prepare(args.games) if args.boards == "start" else emails_bench.prepare_midgame(args.games)
    notify.enqueue = lambda notification_id: True  # no broker: this process delivers each row itself
    time_phases()
    for number in range(1, args.rounds + 1):
        first = emails_bench.next_pk()
        for game in games:
            emails_bench.play_turn(game)
        rows = Notification.objects.filter(pk__gte=first, kind=Notification.Kind.YOUR_TURN).order_by("pk")
        costs = [cost(delivery.deliver, pk) for pk in rows.values_list("pk", flat=True)]
        print(
            f"round {number}: {len(costs)} emails, CPU an email median {statistics.median(costs):.2f} ms, "
            f"mean {statistics.mean(costs):.2f} ms; {common.machine_speed()}"
        )
        for label, spent in SPENT.items():
            print(f"    {label:58s} {spent * 1000 / len(costs):6.2f} ms an email")
        SPENT.clear()
        CALLS.clear()


def cost(deliver: Callable[[int], Any], pk: int) -> float:
    started = time.thread_time()
    outcome = deliver(pk)
    spent = (time.thread_time() - started) * 1000
    if outcome.value != "sent":
        sys.exit(f"notification {pk}: {outcome.value}, not sent")
    return spent


if __name__ == "__main__":
    main()
