"""The move panel's list of every legal move and its one-click buttons are written in Python (the
`move_options` and `quick_buttons` filters): the same HTML the template loops wrote, escaped alike."""

from __future__ import annotations

from django.template import Context, Template

from games.selectors.page import MoveGroup

GROUPS = [
    MoveGroup(kind="build", label="Build", moves=["build 7H 0,1", "build 10S -1,2"], quick=False),
    MoveGroup(kind="odd", label='Odd "<kind>" & co', moves=['say "<b>hi</b>" & go'], quick=True),
]
LOOPS = Template(
    '{% for group in groups %}<optgroup label="{{ group.label }}">{% for m in group.moves %}'
    '<option value="{{ m }}">{{ m }}</option>{% endfor %}</optgroup>{% endfor %}'
    "|{% for group in groups %}{% for m in group.moves %}"
    '<button type="submit" name="text" value="{{ m }}" class="btn btn-small mono">{{ m }}</button>'
    "{% endfor %}{% endfor %}"
)
FILTERS = Template(
    "{% load zarkcity_cards %}{{ groups|move_options }}|"
    "{% for group in groups %}{{ group.moves|quick_buttons }}{% endfor %}"
)


def test_the_filters_write_what_the_template_loops_wrote():
    context = Context({"groups": GROUPS})
    written = FILTERS.render(context)
    assert written == LOOPS.render(context)
    assert "&lt;b&gt;hi&lt;/b&gt;" in written and "<b>" not in written  # a move's text is never markup


def test_no_moves_no_options():
    assert FILTERS.render(Context({"groups": []})) == "|"
