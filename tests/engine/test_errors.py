"""How an error message quotes what was typed: whole when short, else cut at a word with an ellipsis."""

from __future__ import annotations

import pytest

from engine.errors import shown


@pytest.mark.parametrize(
    "typed,quoted",
    [
        ("c2-d3", "'c2-d3'"),
        ("sounds good, see you then, bob", "'sounds good, see you…'"),  # not 'sounds good, see you the'...
        ("word1 word2 word3 word4 word5", "'word1 word2 word3 word4…'"),  # the limit falls after a whole word
        ("word1 word2 word3 word45 x", "'word1 word2 word3 word45…'"),  # ... or on the space after it
        ("a" * 40, "'" + "a" * 24 + "…'"),  # one long word: cut where it must be
        ("it's " * 10, "\"it's it's it's it's it's…\""),  # quoted as Python quotes it
    ],
)
def test_shown_cuts_a_long_input_at_a_word(typed: str, quoted: str) -> None:
    assert shown(typed) == quoted
