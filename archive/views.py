"""The archive's pages: the search, the replay viewer, the log, the verify page, profiles, the leaderboard.

Views only choose who is looking and what to show: the reads are in selectors.py, replay.py and
records.py, the writes in services.py.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_POST

from accounts.selectors import bot_label_of, chosen_name_of, display_name_of
from archive import selectors, services
from archive.charts import rating_history_svg
from archive.forms import ArchiveSearchForm
from archive.records import game_log_text, result_words, verify_game
from archive.replay import closing_words, frame, move_list
from engine import registry
from games import sharing
from games.models import Game, Seat
from games.selectors import game_visible_to
from notifications.middleware import signed_in_by_play_link

AUTOPLAY_SECONDS = 2


# ----------------------------------------------------------------------------- the archive page


@require_GET
def archive_index(request: HttpRequest) -> HttpResponse:
    form = ArchiveSearchForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else getattr(form, "cleaned_data", {})
    page = selectors.archive_list_page(filters, request.GET.get("page"), request.user)
    query = {k: v for k, v in request.GET.dict().items() if k != "page" and v}
    context = {"form": form, "page": page, "query": urlencode(query), "count_cap": f"{selectors.COUNT_CAP:,}"}
    return render(request, "archive/index.html", context)


# ----------------------------------------------------------------------------- one game


def _started_game(request: HttpRequest, game_id: int) -> Game:
    """The game, or 404 when it does not exist, has not started, or is private to this visitor: a private
    game is open to its players, and once over to a browser that opened its share link (games.sharing)."""
    game = Game.objects.filter(pk=game_id).first()
    shared = sharing.shared_with(request.session)
    if game is None or game.status == Game.Status.OPEN or not game_visible_to(game, request.user, shared):
        raise Http404("No such game.")
    return game


def _viewer_colour(game: Game, request: HttpRequest) -> str | None:
    """A player's own colour while the game is on (their hand history); nobody's once it is over (all is shown)."""
    if game.status == Game.Status.FINISHED or not request.user.is_authenticated:
        return None
    seat = Seat.objects.filter(game=game, user=request.user).first()
    return seat.colour if seat else None


@require_GET
def replay_start(request: HttpRequest, game_id: int) -> HttpResponse:
    """/games/<id>/replay/: the last ply, or the ply asked for in the jump form (?ply=N)."""
    game = _started_game(request, game_id)
    ply = request.GET.get("ply", "")
    target = int(ply) if ply.strip().isdigit() else game.ply
    return redirect("replay", game.pk, min(target, game.ply))


@require_GET
def replay(request: HttpRequest, game_id: int, ply: int) -> HttpResponse:
    game = _started_game(request, game_id)
    if ply > game.ply:
        return redirect("replay", game.pk, game.ply)
    viewer = _viewer_colour(game, request)
    shown = frame(game, ply, viewer)
    seats = list(Seat.objects.filter(game=game).select_related("user__profile").order_by("order"))
    context = {
        "game": game,
        "frame": shown,
        "viewer": viewer,
        "players": [(s.colour, display_name_of(s.user), s.user.get_username(), bot_label_of(s.user)) for s in seats],
        "game_name": game.rules.info.name,
        "info": game.rules.info,  # what the header may say is shown: hands only in games that have them
        "board_svg": game.rules.board_svg(shown.view),
        "result": result_words(game),
        "autoplay": request.GET.get("auto") == "1" and ply < shown.last_ply,
        "autoplay_seconds": AUTOPLAY_SECONDS,
    }
    if request.GET.get("fragment") == "1":
        return render(request, "archive/_frame.html", context)
    context["moves"] = move_list(game, viewer)
    context["ending"] = shown.ending if shown.ply == shown.last_ply else closing_words(game)
    return render(request, "archive/replay.html", context)


@require_GET
def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _started_game(request, game_id)
    response = HttpResponse(
        game_log_text(game, _viewer_colour(game, request)), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="{game.game}-{game.pk}.txt"'
    return response


@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _started_game(request, game_id)
    context = {
        "game": game,
        "check": verify_game(game),
        "result": result_words(game),
        "record_url": reverse("game_record", args=[game.pk]),
        "verifier_name": registry.package(game.game).verifier_name,
        "verifier_url": reverse("game_verifier", args=[game.game]),
    }
    return render(request, "archive/verify.html", context)


@require_GET
def verifier(request: HttpRequest, game_id: str) -> FileResponse:
    """A game's offline verifier (Package.verifier), one standard-library file, to download and run."""
    if game_id not in registry.ids() or registry.package(game_id).verifier_path is None:
        raise Http404("no offline verifier for that game")
    package = registry.package(game_id)
    path = package.verifier_path
    assert path is not None
    return FileResponse(
        open(path, "rb"),  # noqa: SIM115 (FileResponse closes it)
        as_attachment=True,
        filename=package.verifier_name,
        content_type="text/x-python; charset=utf-8",
    )


# ----------------------------------------------------------------------------- players


def _player(username: str) -> User:
    return get_object_or_404(get_user_model().objects.select_related("profile"), username=username)


@require_GET
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    user = _player(username)
    profile = selectors.player_profile(user=user, viewer=request.user)
    name = chosen_name_of(user)  # the page's heading adds @username
    context = {
        "player": user,
        "name": name,
        "profile": profile,
        "charts": [
            (standing, rating_history_svg(history, title=f"{standing.name} rating history of {name}"))
            for standing in profile.per_game
            if (history := selectors.rating_history(user=user, game_type=standing.game_type))
        ],
        "own": request.user.is_authenticated and request.user.pk == user.pk,
    }
    # The private feed addresses work without a login, so a session from a play link (whoever holds the
    # email) does not see them; a password login does.
    context["link_session"] = context["own"] and signed_in_by_play_link(request)
    if context["own"] and not context["link_session"]:
        context["feed_key"] = services.feed_token_ensure(user=user).key
    return render(request, "archive/profile.html", context)


def _game_asked(request: HttpRequest) -> str:
    """The game a page is about (?game=<registry id>); the first registered game when none or an unknown one."""
    asked = request.GET.get("game", "")
    return asked if asked in registry.ids() else registry.ids()[0]


@require_GET
def rating_chart(request: HttpRequest, username: str) -> HttpResponse:
    user = _player(username)
    game_type = _game_asked(request)
    title = f"{registry.get(game_type).info.name} rating history of {chosen_name_of(user)}"
    svg = rating_history_svg(selectors.rating_history(user=user, game_type=game_type), title=title)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    game_type = _game_asked(request)
    page = selectors.leaderboard_page(request.GET.get("page"), game_type)
    context = {"page": page, "games": registry.infos(), "chosen": registry.get(game_type).info}
    return render(request, "archive/leaderboard.html", context)


@login_required
@require_POST
def feed_key_rotate(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    services.feed_token_rotate(user=request.user)
    return redirect(reverse("player_profile", args=[request.user.get_username()]) + "#feeds")
