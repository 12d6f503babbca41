"""Forms for the lobby: creating a game of any registered game, and inviting someone to it.

The new-game form offers every game in the registry with its player counts and its options (from
each game's GameInfo); the service (games.services.game_create) re-checks everything against it.
"""

from __future__ import annotations

from typing import Any

from django import forms

from engine import registry
from engine.interface import GameInfo, Option
from games.services import MAX_DAYS, MIN_DAYS


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
        }


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
