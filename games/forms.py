"""Forms of the game page: a move (typed, picked from the legal moves, or discard checkboxes), chat."""

from __future__ import annotations

from django import forms

from games.models import ChatMessage


class MoveForm(forms.Form):
    """One move in notation, and the ply the player was looking at (a stale page must not move)."""

    MAX_LENGTH = 200

    text = forms.CharField(
        max_length=MAX_LENGTH,
        required=False,
        label="Your move",
        error_messages={"max_length": "A move is at most %(limit_value)d characters (this one has %(show_value)d)."},
    )
    seen_ply = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["text"].widget.attrs.update({"autocomplete": "off", "spellcheck": "false", "class": "mono"})

    def show_example(self, notation_help: tuple[tuple[str, str], ...]) -> None:
        """The placeholder is the game's first notation example (its `notation_help()`), e.g. "e.g. c2-d3"."""
        if notation_help:
            self.fields["text"].widget.attrs["placeholder"] = f"e.g. {notation_help[0][0]}"

    def clean(self):
        data = super().clean()
        if "text" in self.errors:  # too long: that is the problem to report, not "type a move"
            return data
        # The discard checkboxes (one per card in hand; the engine checks they are really held).
        cards = self.data.getlist("discard_cards") if hasattr(self.data, "getlist") else []
        if not (data.get("text") or "").strip() and cards:
            data["text"] = "discard " + " ".join(cards)
        if not (data.get("text") or "").strip():
            raise forms.ValidationError(
                "Type a move, pick one from the list, or tick the cards to discard (in the discard step)."
            )
        return data


class ChatForm(forms.Form):
    text = forms.CharField(
        max_length=ChatMessage.MAX_LENGTH,
        label="Say something",
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": ChatMessage.MAX_LENGTH}),
    )
