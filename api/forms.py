"""The settings page's form for a new access token."""

from __future__ import annotations

from django import forms

from api.models import AccessToken


class TokenForm(forms.Form):
    name = forms.CharField(
        label="Name",
        max_length=60,
        help_text="What will use it, e.g. “my bot”: you see this name in the list below.",
        error_messages={"required": "Give the token a name, so you know later what uses it."},
    )
    scopes = forms.MultipleChoiceField(
        label="Scopes",
        choices=AccessToken.Scope.choices,
        initial=[AccessToken.Scope.READ, AccessToken.Scope.PLAY],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose at least one scope."},
    )
