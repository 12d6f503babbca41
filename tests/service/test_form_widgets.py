"""The game page's form fields are written in Python (games.forms.WrittenInPython), to the byte what
Django's own widget templates write: typed text, a refused value and the attributes all escaped."""

from __future__ import annotations

import pytest
from django import forms

from games.forms import ChatForm, MoveForm


class DjangosMoveForm(forms.Form):
    text = forms.CharField(max_length=MoveForm.MAX_LENGTH, required=False)
    seen_ply = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class DjangosChatForm(forms.Form):
    text = forms.CharField(max_length=500, widget=forms.Textarea(attrs={"rows": 2, "maxlength": 500}))


TYPED = [None, {"text": 'd4 "<b>" & more', "seen_ply": "3"}, {"text": "x" * 300, "seen_ply": "-1"}, {"text": ""}]


@pytest.mark.parametrize("data", TYPED)
def test_the_move_form_writes_what_django_writes(data):
    ours, djangos = MoveForm(data, initial={"seen_ply": 5}), DjangosMoveForm(data, initial={"seen_ply": 5})
    ours.show_example((("c2-d3", "a move"),))
    djangos.fields["text"].widget.attrs.update(ours.fields["text"].widget.attrs)  # the same attributes
    if data is not None:
        assert ours.is_valid() == djangos.is_valid() or data["text"] == ""  # ours also wants a move typed
    for name in ("text", "seen_ply"):
        assert str(ours[name]) == str(djangos[name])
    assert 'placeholder="e.g. c2-d3"' in str(ours["text"])


@pytest.mark.parametrize("data", TYPED)
def test_the_chat_form_writes_what_django_writes_with_ids_of_its_own(data):
    ours, djangos = ChatForm(data), DjangosChatForm(data, auto_id="id_chat_%s")
    if data is not None:
        ours.is_valid(), djangos.is_valid()
    assert str(ours["text"]) == str(djangos["text"])
    assert 'id="id_chat_text"' in str(ours["text"])  # not the move field's id_text, on the same page
