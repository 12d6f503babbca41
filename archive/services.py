"""Writes of the archive: the summary rows and rating changes of a game that just ended, and feed keys.

`game_archive` is called from the games app's game-over branch, inside the transaction that
ended the game (the game row is locked there), so a game is archived exactly once and a rating
never counts a game that was rolled back.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, F, Model, Q
from django.utils import timezone

from archive import rows
from archive.models import (
    ArchivedGame,
    ArchivedPlayer,
    ArchivedRow,
    ArchiveTally,
    FeedToken,
    PlayerRating,
    PlayerTally,
    options_key,
)
from archive.ratings import START, Skill, rate_game
from games.events import GameFinished
from games.models import Game, Seat


def game_finished(event: GameFinished) -> None:
    """The game service's GameFinished, heard inside the finishing write's transaction (archive.apps):
    the summary row and the ratings commit with the result, or not at all."""
    game_archive(game=event.game)


@transaction.atomic
def game_archive(*, game: Game) -> ArchivedGame:
    """Write the summary row, one result row per seat and the new ratings; a second call changes nothing."""
    existing = ArchivedGame.objects.filter(pk=game.pk).first()
    if existing is not None:
        return existing
    if game.status != Game.Status.FINISHED:
        raise ValueError(f"game {game.pk} is not finished (status {game.status})")
    seats = list(Seat.objects.filter(game=game).order_by("order"))
    winner_seats = [s for s in seats if s.colour in game.winners]  # several for a tie or a shared win
    archived = ArchivedGame.objects.create(
        game=game,
        finished_at=game.finished_at or timezone.now(),
        started_at=game.started_at,
        game_type=game.game,
        options=dict(game.options),
        player_count=len(seats),
        plies=game.ply,
        reason=game.result_reason,
        winner_colour=game.winner,
        winner_id=winner_seats[0].user_id if len(winner_seats) == 1 else None,
        is_private=game.is_private,
    )
    _rate(archived, seats, winner_seats)
    _tally(archived, seats)
    _archive_tally(archived)
    _list_row(archived, seats)
    return archived


def _tally(archived: ArchivedGame, seats: list[Seat]) -> None:
    """Count the game in each player's tallies for its game and table size, one atomic increment each, in
    user-id order as the ratings are locked: two games sharing players and ending at once neither lose a
    count nor deadlock."""
    table = {"game_type": archived.game_type, "player_count": archived.player_count}
    ordered = sorted(seats, key=lambda seat: seat.user_id)
    PlayerTally.objects.bulk_create([PlayerTally(user_id=s.user_id, **table) for s in ordered], ignore_conflicts=True)
    for seat in ordered:
        outcome = _outcome(archived, seat)
        PlayerTally.objects.filter(user_id=seat.user_id, **table).update(
            played=F("played") + 1,
            won=F("won") + int(outcome == ArchivedPlayer.Outcome.WON),
            drawn=F("drawn") + int(outcome == ArchivedPlayer.Outcome.DRAW),
            private=F("private") + int(archived.is_private),
        )


def _archive_tally(archived: ArchivedGame) -> None:
    """Count a public game in the archive's tally of its kind (game, table size, result, options): one atomic
    increment, so two games ending at once both count."""
    if archived.is_private:
        return
    kind = {
        "game_type": archived.game_type,
        "player_count": archived.player_count,
        "reason": archived.reason,
        "options_key": options_key(archived.options),
    }
    ArchiveTally.objects.bulk_create([ArchiveTally(options=archived.options, **kind)], ignore_conflicts=True)
    ArchiveTally.objects.filter(**kind).update(games=F("games") + 1)


def _list_row(archived: ArchivedGame, seats: list[Seat]) -> None:
    """The game's row in the archive list, rendered now and never again: its facts do not change."""
    listed = [rows.RowSeat(seat.colour, _outcome(archived, seat), seat.user_id) for seat in seats]
    ArchivedRow.objects.create(game=archived, html=rows.render(rows.facts_of(archived, listed)), key=rows.row_key())


def _rate(archived: ArchivedGame, seats: list[Seat], winner_seats: list[Seat]) -> None:
    """Ratings move within the game played only: each player's rating in this game (a row per player and game)."""
    if archived.is_private:  # a private game is its players' business: it moves no public rating
        return _unrated(archived, seats)
    before = _lock_ratings([s.user_id for s in seats], archived.game_type)
    winners = [seat.user_id for seat in winner_seats]
    resigned = [s.user_id for s in seats if s.resigned]
    after = rate_game({uid: Skill(r.mu, r.sigma) for uid, r in before.items()}, winners, resigned)
    if not winners and archived.reason == Game.Reason.TIMEOUT:  # everyone out of time at once: all lost, unrated
        after = {uid: Skill(r.mu, r.sigma) for uid, r in before.items()}
    rows = []
    for seat in seats:
        old, new = before[seat.user_id], after[seat.user_id]
        rows.append(_result_row(archived, seat, _outcome(archived, seat), old, new))
        old.mu, old.sigma, old.rating, old.updated_at = new.mu, new.sigma, new.rating, timezone.now()
        old.games += 1
        old.wins += 1 if seat.user_id in winners else 0
    ArchivedPlayer.objects.bulk_create(rows)
    PlayerRating.objects.bulk_update(before.values(), ["mu", "sigma", "rating", "games", "wins", "updated_at"])


def _unrated(archived: ArchivedGame, seats: list[Seat]) -> None:
    """A private game's result rows, each at the rating its player had (or the start): nothing moves."""
    user_ids = [s.user_id for s in seats]
    current = {r.user_id: r for r in PlayerRating.objects.filter(user_id__in=user_ids, game_type=archived.game_type)}
    rows = []
    for seat in seats:
        rating = current.get(seat.user_id) or PlayerRating(mu=START.mu, sigma=START.sigma, rating=START.rating)
        skill = Skill(rating.mu, rating.sigma)
        rows.append(_result_row(archived, seat, _outcome(archived, seat), rating, skill))
    ArchivedPlayer.objects.bulk_create(rows)


def _lock_ratings(user_ids: list[int], game_type: str) -> dict[int, PlayerRating]:
    """Every player's rating row in this game, created at the start value if new, locked in id order.

    Two games that share a player and end at the same moment would otherwise both read the old
    rating and the second write would erase the first game's change; id order avoids deadlocks.
    """
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(user_id=uid, game_type=game_type, mu=START.mu, sigma=START.sigma, rating=START.rating)
            for uid in user_ids
        ],
        ignore_conflicts=True,
    )
    rows = PlayerRating.objects.select_for_update().filter(user_id__in=user_ids, game_type=game_type)
    rows = rows.order_by("user_id")
    return {row.user_id: row for row in rows}


def _outcome(archived: ArchivedGame, seat: Seat) -> str:
    if archived.reason == Game.Reason.DRAW and not seat.resigned:  # who left before the draw lost
        return ArchivedPlayer.Outcome.DRAW
    won = seat.colour in archived.winner_colour.split(",")
    return ArchivedPlayer.Outcome.WON if won else ArchivedPlayer.Outcome.LOST


def _result_row(archived: ArchivedGame, seat: Seat, outcome: str, old: PlayerRating, new: Skill) -> ArchivedPlayer:
    return ArchivedPlayer(
        archived_game=archived,
        user_id=seat.user_id,
        colour=seat.colour,
        seat_order=seat.order,
        outcome=outcome,
        resigned=seat.resigned,
        finished_at=archived.finished_at,
        game_type=archived.game_type,
        options=archived.options,
        player_count=archived.player_count,
        plies=archived.plies,
        reason=archived.reason,
        is_private=archived.is_private,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu_after=new.mu,
        sigma_after=new.sigma,
        rating_after=new.rating,
    )


def tallies_recount(results: type[Model] = ArchivedPlayer, tallies: type[Model] = PlayerTally) -> int:
    """Every player's tallies counted afresh from their result rows (when the tallies are new, or rows were
    written in bulk); the models may be a migration's historical ones. Returns how many tallies."""
    counted = results.objects.values("user_id", "game_type", "player_count").annotate(  # type: ignore[attr-defined]
        played=Count("pk"),
        won=Count("pk", filter=Q(outcome="won")),
        drawn=Count("pk", filter=Q(outcome="draw")),
        private=Count("pk", filter=Q(is_private=True)),
    )
    tallies.objects.all().delete()  # type: ignore[attr-defined]
    made = tallies.objects.bulk_create((tallies(**row) for row in counted.order_by()), batch_size=1000)  # type: ignore[attr-defined]
    return len(made)


def archive_tallies_recount(games: type[Model] = ArchivedGame, tallies: type[Model] = ArchiveTally) -> int:
    """The archive's tallies of public games counted afresh from its summary rows (when the tallies are new,
    or games were written in bulk); the models may be a migration's historical ones. Returns how many."""
    public = games.objects.filter(is_private=False).order_by()  # type: ignore[attr-defined]
    counted: dict[tuple[str, int, str, str], Any] = {}
    for row in public.values("game_type", "player_count", "reason", "options").annotate(games=Count("pk")):
        kind = (row["game_type"], row["player_count"], row["reason"], options_key(row["options"]))
        tally = counted.setdefault(
            kind,
            tallies(  # the same options apart only by their keys' order: one row
                game_type=kind[0], player_count=kind[1], reason=kind[2], options_key=kind[3], options=row["options"]
            ),
        )
        tally.games += row["games"]
    tallies.objects.all().delete()  # type: ignore[attr-defined]
    return len(tallies.objects.bulk_create(counted.values(), batch_size=1000))  # type: ignore[attr-defined]


def archive_backfill() -> int:
    """Archive every finished game that has no summary row yet, oldest first (ratings depend on order)."""
    missing = Game.objects.filter(status=Game.Status.FINISHED, archived__isnull=True).order_by("finished_at", "pk")
    count = 0
    for game in missing.iterator():
        game_archive(game=game)
        count += 1
    return count


def feed_token_ensure(*, user: User) -> FeedToken:
    """The user's private feed key, made on first use."""
    token, _ = FeedToken.objects.get_or_create(user=user, defaults={"key": secrets.token_urlsafe(32)})
    return token


@transaction.atomic
def feed_token_rotate(*, user: User) -> FeedToken:
    """A new key: the old private feed URLs stop working at once (a leaked link is revoked this way)."""
    FeedToken.objects.filter(user=user).delete()
    return FeedToken.objects.create(user=user, key=secrets.token_urlsafe(32))
