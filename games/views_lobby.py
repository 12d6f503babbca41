"""The lobby's pages: home, my games, new game, open games, a game's waiting room (and adding a bot to
it), invitation links.

Views read through selectors and write through games.services; a refusal (ValidationError) comes back
to the player as a message on the page it came from.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter as get_account_adapter
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine import registry
from games import selectors, services
from games.emails import invitation_id_from_token, invitation_token
from games.forms_lobby import AddBotForm, GameCreateForm, InviteForm
from games.models import Game, Invitation
from games.selectors import game_page_url
from games.selectors.turns import in_time_left_order
from zarkcity_site.ratelimit import limit

HOME_OPEN_GAMES = 8


def _error_text(error: ValidationError) -> str:
    return " ".join(error.messages)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    games = selectors.open_games_list(limit=HOME_OPEN_GAMES, user=request.user)
    return render(request, "games/lobby/home.html", {"open_games": games, "games": registry.infos()})


def _game_filter(request: HttpRequest) -> dict[str, object]:
    """The lists' ?game= filter: the chosen registry id ("" for every game) and the games to choose from."""
    choices = selectors.game_filter_choices()
    chosen = request.GET.get("game", "")
    return {"game_filter": chosen if chosen in dict(choices) else "", "game_choices": choices}


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    shown = _game_filter(request)
    board = selectors.dashboard_for(user=request.user, game=str(shown["game_filter"]))
    board = in_time_left_order(board, request.user)  # the order of the "Next game" button
    invitations = [(invitation, invitation_token(invitation.pk)) for invitation in board.invitations]
    return render(request, "games/lobby/dashboard.html", {"board": board, "invitations": invitations} | shown)


@require_GET
def open_games(request: HttpRequest) -> HttpResponse:
    shown = _game_filter(request)
    games = selectors.open_games_list(user=request.user, game=str(shown["game_filter"]))
    return render(request, "games/lobby/open_games.html", {"open_games": games} | shown)


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    form = GameCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.game_arguments())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if game.status == Game.Status.ACTIVE:
                messages.success(request, "Game created, and with the bots in every other seat it has started.")
            else:
                messages.success(request, "Game created. Invite players, or wait for someone to join.")
            return redirect(game_page_url(game))
    return render(request, "games/lobby/new.html", {"form": form, "offers": GameCreateForm.offers()})


@require_GET
def game_lobby(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        entry = selectors.lobby_game(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        return render(request, "games/lobby/not_found.html", status=404)
    if not selectors.lobby_visible_to(entry, request.user):
        # The same page as a game that does not exist: a private game's number reveals nothing.
        return render(request, "games/lobby/not_found.html", status=404)
    if entry.game.status != Game.Status.OPEN:
        return redirect(game_page_url(entry.game))
    context = {
        "entry": entry,
        "game": entry.game,
        "invite_form": InviteForm(),
        "bot_form": AddBotForm(info=entry.game.rules.info) if _is_creator(entry.game, request.user) else None,
        "invitations": selectors.lobby_invitations(game=entry.game) if entry.my_seat else [],
        "auth_next": request.path,
    }
    return render(request, "games/lobby/waiting.html", context)


@login_required
@require_POST
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    game = _visible_game(request, game_id)
    try:
        services.game_join(game=game, user=request.user)
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect("open_games" if request.POST.get("from") == "open" else game_page_url(game))
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:
        messages.success(request, "You joined, and with every seat taken the game has started.")
    else:
        messages.success(request, "You joined. The game starts when every seat is taken.")
    return redirect(game_page_url(game))


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    """The game a POST acts on; 404 for one that does not exist and, alike, for a private game the
    caller may not see (its number must not confirm that it exists)."""
    try:
        entry = selectors.lobby_game(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    if not selectors.lobby_visible_to(entry, request.user):
        raise Http404("No such game")
    return entry.game


def _is_creator(game: Game, user: object) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and game.created_by_id == getattr(user, "pk", None)


@login_required
@require_POST
def game_add_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    game = _visible_game(request, game_id)
    form = AddBotForm(request.POST, info=game.rules.info)
    if not form.is_valid():
        messages.error(request, " ".join(map(str, form.errors["bot"])))
        return redirect(game_page_url(game))
    try:
        seat = services.game_add_bot(game=game, by=request.user, bot=form.cleaned_data["bot"])
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect(game_page_url(game))
    game.refresh_from_db()
    started = " With every seat taken, the game has started." if game.status == Game.Status.ACTIVE else ""
    messages.success(request, f"{seat.user.get_username()} takes the {seat.colour} seat.{started}")
    return redirect(game_page_url(game))


@login_required
@limit("invite")  # zarkcity_site/ratelimit.py: any seated player can email any address
@require_POST
def game_invite(request: HttpRequest, game_id: int) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    game = get_object_or_404(Game, pk=game_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(map(str, form.errors["who"])))
        return redirect(game_page_url(game))
    try:
        services.invitation_create(game=game, invited_by=request.user, **form.invitee())
    except ValidationError as error:
        messages.error(request, _error_text(error))
    else:
        messages.success(request, f"Invitation sent to {form.cleaned_data['who'].strip()}.")
    return redirect(game_page_url(game))


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: accept or decline, or sign up / log in first."""
    try:
        found = selectors.invitation_get(invitation_id=invitation_id_from_token(token))
    except signing.SignatureExpired:
        return _bad_invitation(request, "This invitation link has expired. Ask whoever invited you for a new one.")
    except (signing.BadSignature, Invitation.DoesNotExist):
        return _bad_invitation(request, "This invitation link is not valid. Check that you copied the whole address.")
    if request.method == "POST":
        return _answer_invitation(request, found)
    if found.email and not request.user.is_authenticated:
        # The link reached this address, so it is verified: signing up with it needs no second email.
        get_account_adapter(request).stash_verified_email(request, found.email)
    user = request.user if request.user.is_authenticated else None
    context = {
        "invitation": found,
        "game": found.game,
        "entry": selectors.lobby_game(game_id=found.game_id, user=user),
        # Said before the visitor clicks "accept", not after.
        "someone_else": user is not None and not selectors.invitation_addressed_to(found, user),
        "auth_next": request.path,  # the header's log in / sign up links come back here too
    }
    return render(request, "games/lobby/invitation.html", context)


def _bad_invitation(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "games/lobby/invitation_invalid.html", {"reason": reason}, status=400)


def _answer_invitation(request: HttpRequest, found: Invitation) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.path)
    try:
        if request.POST.get("answer") == "decline":
            services.invitation_decline(invitation=found, user=request.user)
            messages.info(request, "Invitation declined.")
            return redirect("dashboard")
        services.invitation_accept(invitation=found, user=request.user)
    except ValidationError as error:
        messages.error(request, _error_text(error))
        return redirect(request.path)
    found.game.refresh_from_db()
    messages.success(request, "You have a seat in this game.")
    return redirect(game_page_url(found.game))
