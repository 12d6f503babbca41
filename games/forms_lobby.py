"""Forms for the lobby: creating a game of any registered game, and inviting someone to it.

The new-game form offers every game in the registry with its player counts and its options (from
each game's GameInfo), and a bot or a person for each other seat; the service
(games.services.game_create) re-checks everything against it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import escape

from engine import bots, registry
from engine.interface import GameInfo, Option
from games.services import MAX_DAYS, MAX_SEATS, MIN_DAYS

A_PERSON = ""  # a seat's choice when nobody is a bot there: whoever joins or is invited


def bot_field_name(other: int) -> str:
    """The field choosing who takes the `other`th seat beside the creator's (1 to 4)."""
    return f"bot_{other}"


def _bots_and_games() -> dict[bots.BotInfo, list[str]]:
    """Every engine bot of any game, weakest first, with the names of the games it plays."""
    plays: dict[bots.BotInfo, list[str]] = {}
    for info in registry.infos():
        for bot in bots.bots_for(info.id):
            plays.setdefault(bot, []).append(info.name)
    return plays


def _bot_choices() -> list[tuple[str, str]]:
    every = len(registry.infos())
    return [(A_PERSON, "A person (invited, or anyone who joins)")] + [
        (bot.name, f"{bot.label} bot ({'every game' if len(games) == every else ', '.join(games)})")
        for bot, games in _bots_and_games().items()
    ]


def _bots_help() -> str:
    summaries = " ".join(f"{bot.label}: {bot.summary}" for bot in _bots_and_games())
    return escape(f"Bots take the seats after yours and move within seconds. {summaries}")  # shown |safe


def option_field_name(info: GameInfo, option: Option) -> str:
    """One field per game and option ("zarkcity__deck"): every game's options are on the page at once."""
    return f"{info.id}__{option.name}"


def _player_counts() -> list[int]:
    return sorted({n for info in registry.infos() for n in info.player_counts})


def _game_label(info: GameInfo) -> str:
    counts = info.player_counts
    in_a_row = len(counts) > 1 and counts == tuple(range(counts[0], counts[-1] + 1))
    players = f"{counts[0]}-{counts[-1]}" if in_a_row else " or ".join(map(str, counts))
    return f"{info.name} ({players} players)" + (f": {info.summary}" if info.summary else "")


class GameCreateForm(forms.Form):
    game = forms.ChoiceField(label="Game", widget=forms.RadioSelect)
    seats = forms.TypedChoiceField(label="Players", coerce=int, widget=forms.RadioSelect)
    time_limit_days = forms.IntegerField(
        label="Days per move",
        min_value=MIN_DAYS,
        max_value=MAX_DAYS,
        initial=3,
        help_text=f"How long each player has for a move before the clock runs out ({MIN_DAYS} to {MAX_DAYS} days).",
        error_messages={
            "min_value": f"The time limit is at least {MIN_DAYS} day.",
            "max_value": f"The time limit is at most {MAX_DAYS} days.",
            "invalid": "Give the time limit as a whole number of days.",
        },
    )
    is_private = forms.BooleanField(
        label="Private game",
        required=False,
        help_text=(
            "Only the people you invite can join, and only the players see it. Once over it stays out of the "
            "public archive and the ratings; its players can show it to others with its share link."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        infos = registry.infos()
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = [(info.id, _game_label(info)) for info in infos]
        game.initial = registry.DEFAULT
        counts = _player_counts()
        seats = self.fields["seats"]
        assert isinstance(seats, forms.TypedChoiceField)
        seats.choices = [(n, str(n)) for n in counts]
        seats.initial = counts[0]
        seats.help_text = "; ".join(f"{info.name}: {', '.join(map(str, info.player_counts))}" for info in infos)
        seats.error_messages["invalid_choice"] = f"A game has {counts[0]} to {counts[-1]} players."
        for info in infos:
            for option in info.options:
                self.fields[option_field_name(info, option)] = forms.ChoiceField(
                    label=f"{info.name}: {option.label}",
                    choices=[(choice.value, choice.label) for choice in option.choices],
                    initial=option.default,
                    required=False,
                    widget=forms.RadioSelect,
                    error_messages={"invalid_choice": f"{info.name}: choose the {option.label.lower()} from the list."},
                )
        for other in range(1, MAX_SEATS):
            self.fields[bot_field_name(other)] = forms.ChoiceField(
                label=f"Other player {other}",
                choices=_bot_choices(),
                initial=A_PERSON,
                required=False,
                help_text=_bots_help() if other == 1 else "",
                error_messages={"invalid_choice": f"Other player {other}: choose a person or a bot from the list."},
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = data.get("seats")
        for other in range(1, MAX_SEATS):
            if data.get(bot_field_name(other)) and isinstance(seats, int) and other >= seats:
                self.add_error(bot_field_name(other), f"A game of {seats} players has no other player {other}.")
        return data

    @staticmethod
    def offers() -> dict[str, Any]:
        """What each game allows, for the page's script (static/js/new_game.js) to offer only that once
        a game is picked: its player counts, its option fields, its bots. Without the script every
        choice stays on the page and `clean` and the service refuse what the game does not allow."""
        return {
            "games": {
                info.id: {
                    "seats": list(info.player_counts),
                    "options": [option_field_name(info, option) for option in info.options],
                    "bots": [bot.name for bot in bots.bots_for(info.id)],
                }
                for info in registry.infos()
            },
            "bot_fields": [bot_field_name(other) for other in range(1, MAX_SEATS)],
        }

    def chosen_bots(self) -> tuple[str, ...]:
        """The bots chosen, in the order of the seats they take after the creator's."""
        chosen = (self.cleaned_data.get(bot_field_name(other)) for other in range(1, MAX_SEATS))
        return tuple(bot for bot in chosen if bot)

    def game_arguments(self) -> dict[str, Any]:
        """The keywords for games.services.game_create: the chosen game and only its own options."""
        data = self.cleaned_data
        info = next(i for i in registry.infos() if i.id == data["game"])
        options = {o.name: data.get(option_field_name(info, o)) or o.default for o in info.options}
        return {
            "game": info.id,
            "seats": data["seats"],
            "options": options,
            "time_limit_days": data["time_limit_days"],
            "is_private": data["is_private"],
            "bots": self.chosen_bots(),
        }


class AddBotForm(forms.Form):
    """The waiting room's "add a bot" for the game's creator: the bots of this game."""

    bot = forms.ChoiceField(
        label="Add a bot",
        help_text="It takes the next free seat at once, and moves within seconds of its turn.",
        error_messages={"required": "Choose a bot to add.", "invalid_choice": "Choose one of this game's bots."},
    )

    def __init__(self, *args: Any, info: GameInfo, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bot = self.fields["bot"]
        assert isinstance(bot, forms.ChoiceField)
        bot.choices = [(b.name, f"{b.label}: {b.summary}") for b in bots.bots_for(info.id)]

    @property
    def offers_bots(self) -> bool:
        return bool(self.fields["bot"].choices)  # type: ignore[attr-defined]


class InviteForm(forms.Form):
    who = forms.CharField(
        label="Invite a player",
        max_length=254,
        help_text="Their username on zarkcity, or an email address: we send them a link to join.",
        widget=forms.TextInput(attrs={"placeholder": "username or email", "autocomplete": "off"}),
        error_messages={
            "required": "Give a username or an email address to invite.",
            "max_length": "That is too long for a username or an email address (at most %(limit_value)d characters).",
        },
    )

    def invitee(self) -> dict[str, str]:
        """The keyword for invitation_create: an address if it has an @, else a username."""
        who = self.cleaned_data["who"].strip()
        return {"email": who} if "@" in who else {"username": who}
