"""`manage.py demo`: two demo players and a game between them, ready to open. Safe to run again.

Everything goes through the services, exactly as the web pages would do it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.services import user_ensure_verified
from engine import registry
from games import services
from games.models import Game
from games.selectors import game_page_url

DEMO_PASSWORD = "zarkcity-demo"
DEMO_USERS = ("alice", "bob")
MAX_SETUP_MOVES = 20  # the default game's setup takes a step per seat and one more: far fewer in practice


class Command(BaseCommand):
    help = "Create demo users alice and bob and a 2-player game in progress between them (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        alice, bob = (
            user_ensure_verified(username=name, email=f"{name}@example.com", password=DEMO_PASSWORD)
            for name in DEMO_USERS
        )
        game = _existing_demo_game(alice, bob) or _new_demo_game(alice, bob)
        moves = _play_through_setup(game, {alice.pk: alice, bob.pk: bob})
        game.refresh_from_db()
        url = settings.SITE_URL + game_page_url(game)
        self.stdout.write(self.style.SUCCESS(f"Demo game #{game.pk} ({game.get_status_display()}, {game.phase}):"))
        self.stdout.write(f"  open      {url}")
        for name in DEMO_USERS:
            self.stdout.write(f"  log in as {name} / {DEMO_PASSWORD}")
        if moves:
            self.stdout.write(f"  ({moves} setup moves were played for you)")
        if settings.DEBUG:  # an operator for the admin and the sent-mail list; never on a production site
            user_ensure_verified(username="admin", email="admin@example.com", password=DEMO_PASSWORD, staff=True)
            self.stdout.write(
                f"  operator  admin / {DEMO_PASSWORD}: {settings.SITE_URL}/admin/ and sent mail at /dev/mail/"
            )


def _existing_demo_game(alice: Any, bob: Any) -> Game | None:
    """A game still in progress with exactly alice and bob seated: the one an earlier run made."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, seats_wanted=2, seats__user=alice)
    return games.filter(seats__user=bob).order_by("pk").first()


def _new_demo_game(alice: Any, bob: Any) -> Game:
    game = services.game_create(
        creator=alice, game=registry.DEFAULT, seats=2, options={}, time_limit_days=7, is_private=False
    )
    services.game_join(game=game, user=bob)  # the last seat: the game starts and deals
    game.refresh_from_db()
    return game


def _play_through_setup(game: Game, users: dict[int, Any]) -> int:
    """Play the first legal move of each setup step (the game's turn 0: Zark City's starters), so the demo
    opens at turn 1."""
    seats = {seat.colour: seat for seat in game.seats.all()}
    played = 0
    while game.status == Game.Status.ACTIVE and played < MAX_SETUP_MOVES:
        rules, state = game.rules, services.state_of(game)
        if rules.view(state, None)["turn"] > 0:
            break
        colour = game.to_move.split(",")[0]
        move = next(m for m in rules.legal_moves(state, colour) if not rules.is_resign(m))
        services.move_submit(game=game, user=users[seats[colour].user_id], text=str(move), seen_ply=game.ply)
        game.refresh_from_db()
        played += 1
    return played
