"""The archive's search form: every filter is optional, and a bad value is named, not silently dropped."""

from __future__ import annotations

from typing import Any

from django import forms

from engine import registry
from engine.interface import GameInfo

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
    game = forms.ChoiceField(required=False, label="Game")
    reason = forms.ChoiceField(
        required=False, label="Result", choices=[("", "any result"), *((r, r) for r in registry.reasons())]
    )
    since = forms.DateField(required=False, label="Finished from", widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label="Finished until", widget=forms.DateInput(attrs={"type": "date"}))
    min_plies = forms.IntegerField(required=False, min_value=0, label="At least (moves)")
    max_plies = forms.IntegerField(required=False, min_value=0, label="At most (moves)")
    sort = forms.ChoiceField(required=False, choices=list(SORTS.items()))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        infos = registry.infos()
        assert isinstance(self.fields["game"], forms.ChoiceField)
        self.fields["game"].choices = [("", "any game"), *((info.id, info.name) for info in infos)]
        # One filter per option any game has (e.g. Zark City's deck), offered with every value it takes.
        for name, (label, choices) in _options(infos).items():
            self.fields[name] = forms.ChoiceField(
                required=False, label=label, choices=[("", f"any {label.lower()}")] + choices
            )
        self.order_fields(["player", "game", *_options(infos), "players", "reason"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "The end date is before the start date.")
        low, high = data.get("min_plies"), data.get("max_plies")
        if low is not None and high is not None and low > high:
            self.add_error("max_plies", "The most moves is fewer than the fewest.")
        return data


def _options(infos: tuple[GameInfo, ...]) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """{option name: (label, [(value, label), ...])} over every game's options, values in first-seen order."""
    found: dict[str, tuple[str, list[tuple[str, str]]]] = {}
    for info in infos:
        for option in info.options:
            label, choices = found.setdefault(option.name, (option.label, []))
            choices += [(c.value, c.label) for c in option.choices if c.value not in dict(choices)]
    return found
