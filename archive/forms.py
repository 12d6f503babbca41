"""The archive's search form: every filter is optional, and a bad value is named, not silently dropped."""

from __future__ import annotations

from django import forms

from games.models import Game

SORTS = {
    "newest": "newest first",
    "longest": "longest first",
    "shortest": "shortest first",
}


class ArchiveSearchForm(forms.Form):
    player = forms.CharField(
        required=False, max_length=150, help_text="A username or display name; part of one matches too."
    )
    players = forms.TypedChoiceField(
        required=False,
        label="Players",
        choices=[("", "any number")] + [(str(n), f"{n} players") for n in range(2, 6)],
        coerce=int,
        empty_value=None,
    )
    deck = forms.ChoiceField(required=False, choices=[("", "any deck"), *Game.Deck.choices])
    reason = forms.ChoiceField(required=False, label="Result", choices=[("", "any result"), *Game.Reason.choices])
    since = forms.DateField(required=False, label="Finished from", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="Finished until", widget=forms.DateInput(attrs={"type": "date"}))
    min_plies = forms.IntegerField(required=False, min_value=0, label="At least (moves)")
    max_plies = forms.IntegerField(required=False, min_value=0, label="At most (moves)")
    sort = forms.ChoiceField(required=False, choices=list(SORTS.items()))

    def clean(self) -> dict:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "The end date is before the start date.")
        low, high = data.get("min_plies"), data.get("max_plies")
        if low is not None and high is not None and low > high:
            self.add_error("max_plies", "The most moves is fewer than the fewest.")
        return data
