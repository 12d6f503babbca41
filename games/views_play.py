"""The playing side's pages: the game page, its forms (move, resign, draw, chat), board.svg, record.json.

Views read through selectors and write through services. A refused move re-renders the page with
the reason and what was typed; every other POST redirects back to the page (post/redirect/get).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine import registry
from engine.interface import Clicks
from engine.kit.core import hand_svg, has
from games import clock as game_clock
from games import news, selectors, services, sharing
from games.forms import ChatForm, MoveForm
from games.models import Game, Move, Seat
from games.selectors.turns import first_other, games_waiting, waiting_and_next
from games.services import NotAPlayer, PlayError, StaleMove
from notifications.mutes import is_muted
from notifications.watching import watch_seen
from zarkcity_site.addresses import address
from zarkcity_site.prepared import Prepared
from zarkcity_site.ratelimit import limit


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    """The game, or 404 when it does not exist or is a private game this visitor may not see."""
    game = next(iter(_GAME(game_id=game_id)), None)
    if game is None or not selectors.game_visible_to(game, request.user, _shared(request, game)):
        raise Http404("No such game.")
    return game


_GAME = Prepared(lambda *, game_id: Game.objects.filter(pk=game_id)[:1])  # every move and poll past the cache


def _shared(request: HttpRequest, game: Game) -> frozenset[int]:
    """The private games this session opened by their share link, asked only about a private game: the
    poll of a public game (every open page, every few seconds) then reads no session at all."""
    return sharing.shared_with(request.session) if game.is_private else frozenset()


def _page_url(game: Game) -> str:
    return address("game_detail", game.pk)


def player_post(view: Callable[[HttpRequest, Game], HttpResponse]) -> Callable[[HttpRequest, int], HttpResponse]:
    """POST only; a logged-out visitor is sent to log in and comes back to the game page."""

    @wraps(view)
    def wrapper(request: HttpRequest, game_id: int) -> HttpResponse:
        game = _visible_game(request, game_id)
        if not request.user.is_authenticated:
            return redirect_to_login(_page_url(game))
        return view(request, game)

    return require_POST(wrapper)


# ----------------------------------------------------------------------------- reading


@require_GET
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    # _visible_game's checks, on the game and its seats read at once (the page needs both).
    game, seats = selectors.game_with_table(game_id)
    if game is None or not selectors.game_visible_to(game, request.user, _shared(request, game), seats):
        raise Http404("No such game.")
    if game.status == Game.Status.OPEN:
        return redirect("game_lobby", game.pk)
    return _render_game(request, game, seats=seats)


@require_GET
def game_shared(request: HttpRequest, game_id: int, key: str) -> HttpResponse:
    """A private game's share link (games.sharing): lets this browser into the finished game's pages."""
    game = Game.objects.filter(pk=game_id, is_private=True, status=Game.Status.FINISHED).first()
    if game is None or not sharing.key_fits(game, key):
        raise Http404("No such game.")
    sharing.let_in(request.session, game)
    return redirect(_page_url(game))


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    move_form: MoveForm | None = None,
    error: str = "",
    status: int = 200,
    seats: list[Seat] | None = None,
) -> HttpResponse:
    whole = request.GET.get("history") == "all"
    context = selectors.game_for_viewer(game, request.user, whole_history=whole, seats=seats)
    if move_form is None:
        move_form = MoveForm(initial={"seen_ply": game.ply})
    else:  # a refused move: keep what was typed, answer the position as it is now
        assert isinstance(move_form.data, QueryDict)  # request.POST, immutable until copied
        move_form.data = move_form.data.copy()
        move_form.data["seen_ply"] = str(game.ply)
    rules = game.rules
    move_form.show_example(rules.notation_help())
    table = game_clock.table_clocks(game, seats=context.table_seats)
    # A player's games waiting for them, read once with the days away the clocks read: the "Next game"
    # button, and the tab title's count (in place of the context processor's own query).
    spans = table.spans.get(context.seat.user_id) if context.seat else None
    waiting = games_waiting(request.user, spans=spans) if context.viewer else None
    page = {
        "g": context,
        "game": game,
        "rules": rules,
        # The frontier slots only while the game goes on: a finished city needs no empty cells.
        "board_svg": rules.board_svg(context.view, interactive=game.status == Game.Status.ACTIVE),
        "hand_svg": hand_svg(rules, context.view) if context.hand else "",
        "play_data": _play_data(game, context),
        "board_style": _board_style(game),
        "move_form": move_form,
        "chat_form": ChatForm(),
        "move_error": error,
        "record_url": address("game_record", game.pk),
        "share_url": _share_url(request, game, context),
        # Each mover's own deadline: days away stop a clock, so it can be later than Game.deadline.
        "table": table,
        # The "Next game" button: the other game where it is this player's move with the least time left.
        "next_game": first_other(waiting, game) if waiting is not None else None,
        "muted": bool(context.can_act) and _muted(request.user, game, context.seat),  # the mute button's state
    }
    if waiting is not None:
        page["waiting_count"] = len(waiting)  # games.context_processors.turns counts the same seats
    return render(request, "games/game.html", page, status=status)


def _board_style(game: Game) -> str:
    """The static path of the game's own stylesheet (its Package.style), or "" when it has none."""
    package = registry.package(game.game)
    return package.static_path(package.style) if package.style else ""


def _share_url(request: HttpRequest, game: Game, context: selectors.GameContext) -> str:
    """For the players of a finished private game: the link that shows it to someone else."""
    if not (game.is_private and game.status == Game.Status.FINISHED and context.viewer):
        return ""
    return request.build_absolute_uri(sharing.share_url(game))


def _play_data(game: Game, context: selectors.GameContext) -> dict[str, Any]:
    """What the board script needs, embedded as JSON: this viewer's own legal moves and nothing else.

    The moves come from the game's list for the viewer, so they name only the viewer's own hand
    and public facts (cells, colours, sizes); the script derives every highlight from them. The
    game's own script (BoardScript.module) builds moves from clicks; its data says how cards read.
    """
    script = context.script
    moves = [move for group in context.legal for move in group.moves]
    # The game's BoardScript.data passes through whole (it is public or the viewer's own, the game's
    # promise): a key the page does not know, dice or stack heights, still reaches the game's script.
    return {"phase": context.view["phase"], "labels": {}, **script.data} | {
        "module": static(script.module),
        "ply": game.ply,
        "viewer": context.viewer,
        "movers": list(context.movers),  # public: who may move in the position this page shows
        # Whom the game waits on, as the poll reports it (ply.json's `movers`): it changes without a ply
        # when a seat's sealed choice is in and the game makes that public (selectors.waiting_on).
        "waited_on": _waited_on(game),
        "active": game.status == Game.Status.ACTIVE,
        "moves": moves,
        # A board of the drawing kit: each of those moves with the targets clicked to make it.
        "steps": cast(Clicks, game.rules).click_steps(context.view, moves) if moves and has(game.rules, Clicks) else [],
        "page_url": _page_url(game),
        "ply_url": address("game_ply", game.pk),
        "poll_seconds": settings.ZARKCITY_POLL_SECONDS,
        "unwatched_url": address("notifications:game_unwatched", game.pk),  # the tab went hidden
        "title": f"{game.rules.info.name} #{game.pk} · zarkcity",  # the tab's title when no game waits for you
    }


@require_GET
def game_ply_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """How far the game has got, polled by an open page: {ply, status, movers, moved}; public facts only.
    `movers` (whom the game waits on) also changes without a ply: when a seat's sealed choice is in and
    the game makes that public (never what was chosen), so the others' open pages notice it.

    `?since=N` adds the colours that made moves N, N+1, ... (at most 20), for the page's notice.
    `&mine=1` (a seated player's page asks it) adds the signed-in viewer's own `waiting` (games waiting
    for their move, for the tab's title) and `next` (the one to play next, other than this one), and
    tells the server they are watching the game (the page polls only while its tab is visible: their
    turn email waits, notifications.watching); without it the poll reads no session (a spectator's
    page, every few seconds).
    """
    headline = news.cached(game_id)
    if headline is not None and headline.public:
        # The cached headline answers without reading the game: with nothing new (moves are numbered below
        # the ply) no query at all, else only who made the moves since, up to the headline's ply. `mine=1`
        # still reads its own rows, for which a stand-in with the headline's columns is the game.
        game = Game(pk=game_id, ply=headline.ply, status=headline.status, to_move=headline.to_move)
        return _news_response(request, game, _moved(game, _since(request, game.ply)))
    game = _visible_game(request, game_id)
    news.remember(game)
    return _news_response(request, game, _moved(game, _since(request, game.ply)))


def _moved(game: Game, since: int) -> list[str]:
    """The colours that made moves `since`, `since` + 1, ... below the game's ply (at most 20)."""
    if since >= game.ply:
        return []
    return _MOVERS(game_id=game.pk, since=since, ply=game.ply)


_MOVERS = Prepared(
    lambda *, game_id, since, ply: (
        Move.objects.filter(game_id=game_id, ply__gte=since, ply__lt=ply)
        .order_by("ply")
        .values_list("seat__colour", flat=True)[:20]
    )
)


def _since(request: HttpRequest, ply: int) -> int:
    """`?since=N` as given (at least 0), or the game's ply when missing or not a number."""
    try:
        return max(0, int(request.GET.get("since", ply)))
    except ValueError:
        return ply


def _news_response(request: HttpRequest, game: Game, moved: list[str]) -> HttpResponse:
    headline = news.Headline.of(game)
    body = {"ply": headline.ply, "status": headline.status, "movers": headline.waited_on, "moved": moved}
    response = JsonResponse(body | _turns_of(request, game))
    response["Cache-Control"] = "no-store"
    return response


def _waited_on(game: Game) -> list[str]:
    """The seats the game waits on (its public `to_move` column); none once it is over."""
    return news.Headline.of(game).waited_on


def _turns_of(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The signed-in viewer's own games waiting for them: the count and the next one (their business only)."""
    if request.GET.get("mine") != "1" or not request.user.is_authenticated:
        return {}
    watch_seen(user=request.user, game=game)
    count, upcoming = waiting_and_next(request.user, game)  # one read serves the count and the next game
    following = {"url": upcoming.url, "name": upcoming.name} if upcoming else None
    return {"waiting": count, "next": following}


@require_GET
def game_board_svg(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _started(_visible_game(request, game_id))
    board = game.rules.board_svg(selectors.game_for_viewer(game, None).view)
    return HttpResponse(board, content_type="image/svg+xml; charset=utf-8")


@require_GET
def game_record_json(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _started(_visible_game(request, game_id))
    seat = selectors.seat_of(game, request.user)
    record = selectors.game_record(game, seat.colour if seat else None)
    response = JsonResponse(record, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{game.game}-{game.pk}.json"'  # a file to keep and verify
    return response


def _started(game: Game) -> Game:
    if game.status == Game.Status.OPEN:
        raise Http404("This game has not started yet.")
    return game


# ----------------------------------------------------------------------------- playing


@limit("move")  # zarkcity_site/ratelimit.py: per player, in the shared cache
@player_post
def game_move(request: HttpRequest, game: Game) -> HttpResponse:
    assert request.user.is_authenticated  # player_post
    form = MoveForm(request.POST)
    if not form.is_valid():
        if "seen_ply" in form.errors:  # a hand-made or truncated request: say so rather than guess the ply
            return _render_game(request, game, move_form=form, error="Reload the page and try again.", status=400)
        refusal = " ".join(str(message) for messages_ in form.errors.values() for message in messages_)
        return _render_game(request, game, move_form=form, error=refusal, status=400)
    try:
        services.move_submit(
            game=game, user=request.user, text=form.cleaned_data["text"], seen_ply=form.cleaned_data["seen_ply"]
        )
    except NotAPlayer as refusal:
        return _forbidden(request, game, refusal)
    except StaleMove as refusal:
        game.refresh_from_db()
        return _render_game(request, game, move_form=form, error=refusal.reason, status=409)
    except PlayError as refusal:
        game.refresh_from_db()
        return _render_game(request, game, move_form=form, error=refusal.reason, status=400)
    # To the status line, with the board under it: who moves now, and the "Next game" button.
    return redirect(_page_url(game) + "#status")


def _muted(user: User | AnonymousUser, game: Game, seat: Seat | None) -> bool:
    """Whether the viewer muted the game: as their seat was read with the page's game (game_with_table),
    else asked (a refused move's page, whose seats were read under the move's lock)."""
    muted = getattr(seat, "muted", None)  # the annotation of game_with_table's read
    return bool(muted) if muted is not None else is_muted(user, game)


def _forbidden(request: HttpRequest, game: Game, refusal: Exception) -> HttpResponse:
    return render(request, "games/play/forbidden.html", {"game": game, "reason": str(refusal)}, status=403)


@require_http_methods(["GET", "POST"])
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET asks "are you sure?"; the POST from that page resigns."""
    game = _visible_game(request, game_id)
    if not request.user.is_authenticated:
        return redirect_to_login(_page_url(game))
    if request.method == "GET":
        return render(request, "games/play/resign_confirm.html", {"game": game})
    try:
        services.player_resign(game=game, user=request.user)
    except NotAPlayer as refusal:
        return _forbidden(request, game, refusal)
    except PlayError as refusal:
        messages.error(request, refusal.reason)
        return redirect(_page_url(game))
    messages.info(request, "You have resigned from this game.")
    return redirect(_page_url(game))


DRAW_ACTIONS = {"propose": services.draw_propose, "accept": services.draw_accept, "decline": services.draw_decline}
DRAW_DONE = {"propose": "You proposed a draw.", "accept": "You accepted the draw.", "decline": "You declined the draw."}


@player_post
def game_draw(request: HttpRequest, game: Game) -> HttpResponse:
    assert request.user.is_authenticated  # player_post
    action = request.POST.get("action", "")
    if action not in DRAW_ACTIONS:
        messages.error(request, "Choose to propose, accept or decline a draw.")
        return redirect(_page_url(game))
    try:
        proposal = DRAW_ACTIONS[action](game=game, user=request.user)
    except NotAPlayer as refusal:
        return _forbidden(request, game, refusal)
    except PlayError as refusal:
        messages.error(request, refusal.reason)
    else:
        messages.success(request, DRAW_DONE[action])
        if action == "propose" and proposal.decided_by is not None:  # a bot at the table declined at once
            messages.info(request, f"{proposal.decided_by.user.get_username()} declined: a bot plays every game out.")
    return redirect(_page_url(game))


@limit("chat")  # zarkcity_site/ratelimit.py: per player, in the shared cache
@player_post
def game_chat(request: HttpRequest, game: Game) -> HttpResponse:
    assert request.user.is_authenticated  # player_post
    form = ChatForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(map(str, form.errors.get("text", ["Write something before sending."]))))
        return redirect(_page_url(game) + "#chat")
    try:
        services.chat_post(game=game, user=request.user, text=form.cleaned_data["text"])
    except NotAPlayer as refusal:
        return _forbidden(request, game, refusal)
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    return redirect(_page_url(game) + "#chat")
