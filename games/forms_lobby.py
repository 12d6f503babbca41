"""Forms for the lobby: creating a game and inviting someone to it. The services re-check everything."""

from __future__ import annotations

from django import forms

from games.models import Game
from games.services import MAX_DAYS, MAX_SEATS, MIN_DAYS, MIN_SEATS


class GameCreateForm(forms.Form):
    seats = forms.TypedChoiceField(
        label="Players",
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        coerce=int,
        initial=MIN_SEATS,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": f"A game has {MIN_SEATS} to {MAX_SEATS} players."},
    )
    deck = forms.ChoiceField(
        choices=Game.Deck.choices,
        initial=Game.Deck.STANDARD,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": "Choose the standard or the arcade deck."},
    )
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
        help_text="Not listed among the open games: only the people you invite can join.",
    )


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
