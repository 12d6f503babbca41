"""Writes: outbox rows for game events, and a player's preferences and days away.

The `notify_*` functions are called by games.services INSIDE the transaction that records the move
(or the invitation), so the rows exist exactly when the move does. Each row is handed to Celery only after commit
(`transaction.on_commit`): a rolled-back move never emails anyone, and a broker that is down at
that moment costs a delay, not an email (the sweep re-queues rows nobody picked up).
"""

from __future__ import annotations

import logging
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.kit.core import is_simultaneous
from games.models import DrawProposal, Game, Invitation, Move, Seat

from .models import TURN_KINDS, Away, Notification, PlayLinkUse, Preference
from .selectors import next_digest_at, preference_for, zone_of
from .tasks import deliver
from .watching import held_until

log = logging.getLogger(__name__)
Kind = Notification.Kind

# Kinds a player in "daily digest" mode still gets at once: they are rare and they matter now.
EVENT_KINDS = {
    Kind.GAME_STARTED,
    Kind.GAME_OVER,
    Kind.DRAW_PROPOSED,
    Kind.DRAW_DECLINED,
    Kind.PLAYER_RESIGNED,
    Kind.TIMED_OUT,
    Kind.REMINDER_50,
    Kind.REMINDER_80,
    Kind.INVITATION,
}


# ----------------------------------------------------------------------------- the outbox


def notify_after_move(
    *, game: Game, move: Move, before: Any = None, after: Any = None, seats: list[Seat] | None = None
) -> list[int]:
    """A move was recorded (game already saved): "your turn" to whoever must move now and did not before.

    Not for the discard step inside one's own turn, nor while the others still make a simultaneous
    choice (Zark City's starters). The end of the game goes to everyone instead. `before` and `after`
    are the game's own states, read only through its rules (game.rules); without `after` the game's
    saved position stands for it. `seats`: every seat of the game in order with its user and their
    preferences (games.selectors.table_of, read in this transaction), else they are read here.
    """
    if game.status == Game.Status.FINISHED:
        return notify_game_over(game=game, seats=seats)
    _answered(game, move, seats)
    now_moving = set(game.to_move.split(",")) - {""}
    rules = game.rules
    after = after if after is not None else rules.from_position(game.snapshot)
    was_moving = set(rules.movers(before)) if before is not None else {move.seat.colour}
    if before is not None and is_simultaneous(rules, before) and not is_simultaneous(rules, after):
        was_moving = set()  # the secret choices revealed: the next step is new, even for whoever chose last
    if is_simultaneous(rules, after):
        was_moving |= now_moving  # nobody new is asked to move while the others still choose
    new = now_moving - was_moving
    # The ply was just moved on under the game's lock: no "your turn" row can exist for it yet, so the
    # rows are inserted without looking first (the unique row still decides, should one be there).
    chosen = _seats(game, colours=new, table=seats)
    return _write_for_seats(game, chosen, Kind.YOUR_TURN, actor=move.seat.colour, fresh=True)


def _answered(game: Game, move: Move, seats: list[Seat] | None) -> None:
    """The mover's turn emails still unsent (held while they watched, or not yet taken by a worker) are
    answered by this move: skipped now, for the reason the worker would give when it claimed them. Only
    where the move's seats say one waits (table_of's `turn_email_waiting`): most moves write nothing."""
    mover = next((s for s in seats or () if s.pk == move.seat_id), None)
    if mover is None or mover.resigned or not getattr(mover, "turn_email_waiting", False):
        return
    Notification.objects.filter(
        game=game, recipient_id=mover.user_id, status=Notification.Status.PENDING, kind__in=TURN_KINDS
    ).update(status=Notification.Status.SKIPPED, skip_reason="they already moved")


def notify_game_started(*, game: Game) -> list[int]:
    """The deal is done: everyone is asked for their first move (this email is also their "your turn")."""
    return _write_for_seats(game, _seats(game), Kind.GAME_STARTED, actor="")


def notify_game_over(*, game: Game, seats: list[Seat] | None = None) -> list[int]:
    """The result, to everyone who sat at the table (players who left too: they may want to know)."""
    return _write_for_seats(game, _seats(game, active_only=False, table=seats), Kind.GAME_OVER, actor=game.winner)


def notify_draw_proposed(*, game: Game, proposal: DrawProposal) -> list[int]:
    seats = [s for s in _seats(game) if s.pk != proposal.proposed_by_id]
    return _write_for_seats(game, seats, Kind.DRAW_PROPOSED, actor=proposal.proposed_by.colour)


def notify_draw_declined(*, game: Game, proposal: DrawProposal, by: Seat) -> list[int]:
    """The offer is off: every remaining player but the one who declined hears it (the proposer, and
    whoever else was weighing it up; the draw_proposed email went to them all)."""
    seats = [s for s in _seats(game) if s.pk != by.pk]
    return _write_for_seats(game, seats, Kind.DRAW_DECLINED, actor=by.colour)


def notify_player_resigned(*, game: Game, move: Move, reason: str = "resignation") -> list[int]:
    """Tell the table someone left or ran out of time (a finished game gets game_over instead).

    Whoever was just told "your turn" by the same move reads it there, so is not told twice. A player
    resigned for running out of time is told too.
    """
    if game.status == Game.Status.FINISHED:
        return []
    told = set(
        Notification.objects.filter(game=game, ply=game.ply, kind=Kind.YOUR_TURN).values_list("recipient", flat=True)
    )
    seats = [s for s in _seats(game) if s.pk != move.seat_id and s.user_id not in told]
    kind = Kind.TIMED_OUT if reason == "timeout" else Kind.PLAYER_RESIGNED
    if kind == Kind.TIMED_OUT:
        seats.append(move.seat)  # the service resigned them: they hear it from us, not from a blank board
    return _write_for_seats(game, seats, kind, actor=move.seat.colour)


def notify_reminder(*, game: Game, seat: Seat, kind: str) -> list[int]:
    return _write_for_seats(game, [seat], kind, actor=seat.colour)


def notify_invitation(*, invitation: Invitation) -> int | None:
    """The invitation email (games.emails renders it), written in invitation_create's transaction.

    An invitee who is a user is asked like any player: "no email at all" means none. An address that is
    nobody's account has no preferences and gets no List-Unsubscribe: the invitation is a one-off from
    someone who knows them, and nothing else is ever sent there unless they sign up.
    """
    invitee = invitation.user
    if invitee is not None and not wants(invitee, Kind.INVITATION):
        return None  # it still shows on their dashboard
    return write_row(game=invitation.game, recipient=invitee, kind=Kind.INVITATION, invitation=invitation)


def _seats(
    game: Game, *, colours: set[str] | None = None, active_only: bool = True, table: list[Seat] | None = None
) -> list[Seat]:
    """The game's seats in order (those still playing unless not `active_only`, of `colours` if given):
    picked out of `table` (every seat in order, read by the caller) or read here."""
    if table is not None:
        return [s for s in table if not (active_only and s.resigned) and (colours is None or s.colour in colours)]
    seats = game.seats.select_related("user").order_by("order")
    if active_only:
        seats = seats.filter(resigned=False)
    if colours is not None:
        seats = seats.filter(colour__in=colours)
    return list(seats)


def _write_for_seats(game: Game, seats: list[Seat], kind: str, *, actor: str, fresh: bool = False) -> list[int]:
    """A row to each seat's player who wants this email. A seat read with its watch (table_of, under the
    game's lock) gives `watched_at`: a player watching gets the "your turn" already held."""
    ids = []
    for seat in seats:
        if wants(seat.user, kind):
            seen = getattr(seat, "watched_at", None)
            row_id = write_row(game=game, recipient=seat.user, kind=kind, actor=actor, fresh=fresh, watched_at=seen)
            if row_id is not None:
                ids.append(row_id)
    return ids


def wants(user: User, kind: str) -> bool:
    """Whether to write the row at all; the worker asks again before sending (preferences change)."""
    if not user.email or not user.is_active:
        return False
    mode = preference_for(user).mode
    if mode == Preference.Mode.NONE:
        return False
    return mode == Preference.Mode.EVERY_TURN or kind in EVENT_KINDS or kind == Kind.DIGEST


def write_row(
    *,
    game: Game | None,
    recipient: User | None,
    kind: str,
    actor: str = "",
    digest_date: date | None = None,
    invitation: Invitation | None = None,
    fresh: bool = False,
    watched_at: datetime | None = None,
) -> int | None:
    """One outbox row, sent after commit; None when that email was already written (the unique row).

    `watched_at`: when the recipient's visible page of the game last polled. An email asking for a move
    to a player watching is written held, as the worker would hold it (watching.held_until): a due time
    and no broker task, for the sweep to hand out when the grace is over. No worker is woken for it.

    `fresh`: the row is almost surely new (a "your turn" for the ply just recorded), so it is inserted
    without a SELECT first; should the unique row exist after all, the insert fails and nothing is written,
    as get_or_create would have it. Elsewhere (the sweep's digests and reminders ask again every minute)
    looking first is cheaper than failing an INSERT."""
    now = timezone.now()
    lookup: dict[str, Any] = {"game": game, "ply": game.ply if game else 0, "recipient": recipient, "kind": kind}
    if kind == Kind.DIGEST:
        lookup = {"recipient": recipient, "kind": kind, "digest_date": digest_date}
    elif kind == Kind.INVITATION:
        lookup = {"invitation": invitation, "kind": kind}
    held = held_until(kind, watched_at, now, now)
    defaults = {"game": game, "recipient": recipient, "actor": actor, "created_at": now}
    defaults |= {"send_after": held, "queued_at": None} if held else {"queued_at": now}
    if fresh:
        row_id = _insert_new(lookup, defaults)
    else:
        # get_or_create runs the INSERT in a savepoint: losing a race to another sweep is not an error.
        row, created = Notification.objects.get_or_create(**lookup, defaults=defaults)
        row_id = row.pk if created else None
    if row_id is None:
        return None
    if held is None:
        transaction.on_commit(partial(enqueue, row_id))
    return row_id


def _insert_new(lookup: dict[str, Any], defaults: dict[str, Any]) -> int | None:
    """INSERT in a savepoint; None if the unique row was already there (as get_or_create: an IntegrityError
    with no such row is some other fault, raised)."""
    try:
        with transaction.atomic():
            return Notification.objects.create(**(lookup | defaults)).pk
    except IntegrityError:
        if Notification.objects.filter(**lookup).exists():
            return None
        raise


def enqueue(notification_id: int) -> bool:
    """Hand a row to the broker. If the broker is down, log it and move on: the sweep re-queues the row."""
    try:
        deliver.apply_async((notification_id,), retry=False, queue=settings.NOTIFICATIONS_QUEUE)
    except Exception as error:  # kombu raises several kinds; none may break the request that made the move
        log.warning("notification %s not queued (%s); the sweep will re-queue it", notification_id, error)
        return False
    return True


def play_link_use(*, nonce: str, user: User, game: Game) -> bool:
    """Record that a play link signed someone in; False if it already had (the unique nonce decides a race)."""
    try:
        with transaction.atomic():
            PlayLinkUse.objects.create(nonce=nonce, user=user, game=game)
    except IntegrityError:
        return False
    return True


def notification_requeue(*, notification: Notification) -> None:
    """An operator sends a failed (or skipped) row again, from the admin."""
    Notification.objects.filter(pk=notification.pk).update(
        status=Notification.Status.PENDING, send_after=None, queued_at=timezone.now(), skip_reason=""
    )
    transaction.on_commit(partial(enqueue, notification.pk))


# ----------------------------------------------------------------------------- preferences and days away


def preference_update(
    *, user: User, mode: str, time_zone: str, quiet_from: time | None = None, quiet_until: time | None = None
) -> Preference:
    if mode not in Preference.Mode.values:
        raise ValidationError(f"Choose every turn, a daily digest or no email, not {mode!r}.")
    _check_zone(time_zone)
    if (quiet_from is None) != (quiet_until is None):
        raise ValidationError("Quiet hours need both a start and an end time (or neither).")
    if quiet_from is not None and quiet_from == quiet_until:
        raise ValidationError("Quiet hours must start and end at different times.")
    digest_at = next_digest_at(Preference(mode=mode, time_zone=time_zone), timezone.now())
    preference, _ = Preference.objects.update_or_create(
        user=user,
        defaults={
            "mode": mode,
            "time_zone": time_zone,
            "quiet_from": quiet_from,
            "quiet_until": quiet_until,
            "next_digest_at": digest_at,
        },
    )
    _release_held(user)
    clocks_recheck(user=user, now=timezone.now())  # days away are whole days of their time zone, which may have changed
    return preference


def _release_held(user: User) -> None:
    """Emails the old quiet hours held (pending, due later, in no broker: delivery.quiet_until) go back to
    a worker now, which asks the new preferences again: sent if the hours were cleared, held again
    until their new end if not. Otherwise they would wait for the old end (or be dropped by then)."""
    now = timezone.now()
    held = Notification.objects.filter(
        recipient=user, status=Notification.Status.PENDING, send_after__gt=now, queued_at__isnull=True
    )
    ids = list(held.values_list("pk", flat=True))
    Notification.objects.filter(pk__in=ids).update(send_after=now, queued_at=now)
    for pk in ids:
        transaction.on_commit(partial(enqueue, pk))


def _check_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(f"{name!r} is not a time zone we know: pick one such as Europe/Paris.") from None


def unsubscribe(*, user: User) -> Preference:
    """The one-click link: no more email of any kind (the settings page turns it back on)."""
    preference, _ = Preference.objects.update_or_create(
        user=user, defaults={"mode": Preference.Mode.NONE, "unsubscribed_at": timezone.now(), "next_digest_at": None}
    )
    return preference


def away_add(*, user: User, first_day: date, last_day: date, today: date) -> Away:
    """Days away, in the user's time zone, within limits that keep clocks finite (docs/notifications.md):
    not in the past, ending within NOTIFICATIONS_AWAY_HORIZON_DAYS, at most NOTIFICATIONS_MAX_AWAY_DAYS at
    once and NOTIFICATIONS_AWAY_DAYS_PER_YEAR in any 365 days."""
    longest, horizon = settings.NOTIFICATIONS_MAX_AWAY_DAYS, settings.NOTIFICATIONS_AWAY_HORIZON_DAYS
    if last_day < first_day:
        raise ValidationError("The last day away comes before the first.")
    if first_day < today:
        raise ValidationError("Days away cannot start in the past: the clock already ran on those days.")
    if (last_day - today).days > horizon:
        raise ValidationError(f"Days away can be planned up to {horizon} days ahead: add later ones nearer the time.")
    if (last_day - first_day).days + 1 > longest:
        raise ValidationError(f"One period away is at most {longest} days: add another after it if you must.")
    with transaction.atomic():
        # Lock the user's periods: two requests adding days at once would each see room for theirs.
        list(Away.objects.select_for_update().filter(user=user).values_list("pk", flat=True))
        _check_year(user, first_day, last_day)
        return Away.objects.create(user=user, first_day=first_day, last_day=last_day)


def _check_year(user: User, first_day: date, last_day: date) -> None:
    """At most NOTIFICATIONS_AWAY_DAYS_PER_YEAR days away in any 365 consecutive days, counting the new ones."""
    allowed, year = settings.NOTIFICATIONS_AWAY_DAYS_PER_YEAR, timedelta(days=364)
    new = {first_day + timedelta(days=n) for n in range((last_day - first_day).days + 1)}
    days = sorted(away_days(user, since=first_day - year, until=last_day + year) | new)
    end = 0
    for start, day in enumerate(days):  # the fullest window starts on a day away: slide over them
        while end < len(days) and days[end] <= day + year:
            end += 1
        if end - start > allowed and day <= last_day and days[end - 1] >= first_day:
            raise ValidationError(
                f"Days away are at most {allowed} in any 365 days: these {len(new)} would make {end - start} "
                f"in the year from {day:%d %b %Y}. Resign a game you cannot play instead."
            )


def away_days(user: User, *, since: date, until: date) -> set[date]:
    """The days between since and until (both included) a user is or was away: a period ended early
    counts up to the day it ended (a period cancelled before it began counts none)."""
    zone = zone_of(preference_for(user))
    days: set[date] = set()
    periods = Away.objects.filter(user=user, first_day__lte=until, last_day__gte=since)
    for first, last, ended in periods.values_list("first_day", "last_day", "ended_at"):
        if ended is not None:
            last = min(last, ended.astimezone(zone).date())
        first, last = max(first, since), min(last, until)
        days |= {first + timedelta(days=n) for n in range((last - first).days + 1)}
    return days


def away_end(*, user: User, away_id: int) -> Away:
    """Back early, or never mind: the clock runs again from now (time already paused stays paused)."""
    away = Away.objects.filter(user=user, pk=away_id, ended_at__isnull=True).first()
    if away is None:
        raise ValidationError("There is no such period away.")
    away.ended_at = timezone.now()
    away.save(update_fields=["ended_at"])
    clocks_recheck(user=user, now=away.ended_at)  # their clocks may run out sooner than the sweep wrote down
    return away


def clocks_recheck(*, user: User, now: datetime) -> int:
    """A player's days away or time zone changed: their clocks may now run out sooner than the time the
    sweep wrote down (Game.clock_due_at), so each game where they still sit is looked at again by the
    next sweep, which writes the right time. Returns how many games."""
    seated = Game.objects.filter(
        status=Game.Status.ACTIVE, seats__user=user, seats__resigned=False, clock_due_at__gt=now
    ).values_list("pk", flat=True)
    return Game.objects.filter(pk__in=list(seated)).update(clock_due_at=now)
