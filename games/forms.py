"""Forms of the game page: a move (typed, picked from the legal moves, or cards ticked in hand), chat."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils.safestring import SafeString, mark_safe

from games.html import escape
from games.models import ChatMessage


class WrittenInPython:
    """A widget whose tag is written here, the same HTML as Django's own widget templates
    (django/forms/widgets/input.html, textarea.html, attrs.html): the game page shows three such
    fields on every load, and rendering them through the template engine cost it about a millisecond."""

    def _render(self, template_name: str, context: dict[str, Any], renderer: BaseRenderer | None = None) -> SafeString:
        widget = context["widget"]
        attrs = "".join(
            f" {name}" if value is True else f' {name}="{escape(value)}"'
            for name, value in widget["attrs"].items()
            if value is not False
        )
        if isinstance(self, forms.Textarea):
            text = escape(widget["value"]) if widget["value"] else ""
            return mark_safe(f'<textarea name="{escape(widget["name"])}"{attrs}>\n{text}</textarea>')  # noqa: S308
        value = f' value="{escape(widget["value"])}"' if widget["value"] is not None else ""
        return mark_safe(f'<input type="{widget["type"]}" name="{escape(widget["name"])}"{value}{attrs}>')  # noqa: S308


class TextInput(WrittenInPython, forms.TextInput):
    pass


class HiddenInput(WrittenInPython, forms.HiddenInput):
    pass


class Textarea(WrittenInPython, forms.Textarea):
    pass


class MoveForm(forms.Form):
    """One move in notation, and the ply the player was looking at (a stale page must not move)."""

    MAX_LENGTH = 200

    text = forms.CharField(
        max_length=MAX_LENGTH,
        required=False,
        label="Your move",
        widget=TextInput,
        error_messages={"max_length": "A move is at most %(limit_value)d characters (this one has %(show_value)d)."},
    )
    seen_ply = forms.IntegerField(min_value=0, widget=HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].widget.attrs.update({"autocomplete": "off", "spellcheck": "false", "class": "mono"})

    def show_example(self, notation_help: tuple[tuple[str, str], ...]) -> None:
        """The placeholder is the game's first notation example (its `notation_help()`), e.g. "e.g. c2-d3"."""
        if notation_help:
            self.fields["text"].widget.attrs["placeholder"] = f"e.g. {notation_help[0][0]}"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "text" in self.errors:  # too long: that is the problem to report, not "type a move"
            return data
        # The tick-boxes of a step that picks cards in hand (Table.pick): its verb, then the ticked cards
        # (the engine checks the verb and that the cards are really held).
        getlist = getattr(self.data, "getlist", None)
        cards = getlist("pick_cards") if getlist else []
        verb = str(self.data.get("pick_verb", "")).strip()
        if not (data.get("text") or "").strip() and cards and verb:
            data["text"] = " ".join([verb, *cards])
        if not (data.get("text") or "").strip():
            raise forms.ValidationError("Type a move, pick one from the list, or tick the cards the step asks for.")
        return data


class ChatForm(forms.Form):
    text = forms.CharField(
        max_length=ChatMessage.MAX_LENGTH,
        label="Say something",
        widget=Textarea(attrs={"rows": 2, "maxlength": ChatMessage.MAX_LENGTH}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Its own ids: the game page shows it beside the move form, whose field is also called "text".
        kwargs.setdefault("auto_id", "id_chat_%s")
        super().__init__(*args, **kwargs)
