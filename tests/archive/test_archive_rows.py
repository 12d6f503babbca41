"""The archive list's rows, rendered once when a game is archived (archive/rows.py): what they show is
what the list showed when it rendered every row on every request, names are current, and a row from an
older template is rendered again."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse

from accounts.services import profile_update
from archive import rows, selectors
from archive.models import ArchivedGame, ArchivedRow
from tests.archive.archive_helpers import finished_rows

pytestmark = pytest.mark.django_db

# The list's row as archive/index.html rendered it for every game of every page before rows were stored.
EVERY_TIME = Template(
    """{% load zarkcity_cards accounts archive_words %}{% for g in games %}
    <tr>
      <td><a href="{% url 'replay' g.game_id g.plies %}">#{{ g.game_id }}</a> <span class="muted small">{{ g.game_name }}{% if g.options_text %}, {{ g.options_text }}{% endif %}</span>{% if g.is_private %} <span class="badge badge--private" title="Listed to its players only">private</span>{% endif %}</td>
      <td>{% for p in g.players.all %}<span class="ar-player{% if p.outcome == 'won' %} ar-player--won{% endif %}">{{ p.colour|seat_chip }} <a href="{% url 'player_profile' p.user.username %}">{{ p.user|display_name }}</a>{{ p.user|bot_badge }}</span>{% if not forloop.last %}, {% endif %}{% endfor %}</td>
      <td>{{ g|outcome }}</td>
      <td class="ar-num">{{ g.plies }}</td>
      <td><time datetime="{{ g.finished_at|date:'c' }}">{{ g.finished_at|date:"j M Y" }}</time></td>
    </tr>
  {% endfor %}"""  # noqa: E501
)


def listed_html(client, query=None) -> str:
    html = client.get(reverse("archive"), query or {}).content.decode()
    return html[html.index("<tbody>") + len("<tbody>") : html.index("</tbody>")]


def rendered_every_time(query=None, viewer=None) -> str:
    games = selectors.with_players(selectors.archive_search(query or {}, viewer))[: selectors.ARCHIVE_PAGE_SIZE]
    return "\n  " + EVERY_TIME.render(Context({"games": list(games)})) + "\n  "


@pytest.fixture
def varied(users):
    """Games of every kind a row shows: sizes, a draw, a shared win, a timeout, Deck Town, a private one."""
    alice, bob, charlie, dave, erin = users
    profile_update(user=alice, display_name='Alice <the & "Bold">')
    profile_update(user=bob, display_name="bob")  # the display name is the username: no "(@bob)"
    finished_rows([alice, bob], plies=30)
    finished_rows([alice, charlie, dave], winner=2, reason="resignation", plies=1)
    finished_rows([bob, erin], deck="arcade", reason="timeout", winner=None, plies=12)
    finished_rows([charlie, dave, erin, bob, alice], winner=None, reason="draw", plies=200)
    finished_rows([alice, bob], game_id="decktown", options={}, plies=44)
    finished_rows([alice, erin], is_private=True, plies=50)
    game = finished_rows([charlie, dave], plies=77, archive=False)
    game.winner = "red,yellow"
    game.save()
    from archive.services import game_archive

    game_archive(game=game)
    return users


def test_the_stored_rows_show_what_rendering_every_row_showed(client, varied):
    assert listed_html(client) == rendered_every_time()
    client.force_login(varied[0])  # alice also sees her private game, marked private
    assert listed_html(client) == rendered_every_time(viewer=varied[0])
    assert "private</span>" in listed_html(client)
    assert listed_html(client, {"player": "dave"}) == rendered_every_time({"player": "dave"}, varied[0])


def test_a_page_renders_no_row(client, varied, monkeypatch):
    def refuse(facts):
        raise AssertionError(f"game {facts.game_id}'s row was rendered while listing")

    monkeypatch.setattr(rows, "render", refuse)
    assert client.get(reverse("archive")).status_code == 200


def test_names_are_current(client, varied):
    alice = varied[0]
    profile_update(user=alice, display_name="Queen of Pyramids")
    html = listed_html(client)
    assert "Queen of Pyramids (@alice)" in html and "Alice &lt;the" not in html
    assert html == rendered_every_time()


def test_a_row_from_another_template_is_rendered_again_and_stored(client, varied):
    public = ArchivedGame.objects.filter(is_private=False)
    game = public.order_by("-finished_at").first()
    ArchivedRow.objects.filter(game=game).update(html="<tr><td>old</td></tr>", key="older")
    ArchivedRow.objects.filter(pk__in=public.exclude(pk=game.pk).values("pk")[:1]).delete()  # none stored
    assert listed_html(client) == rendered_every_time()
    assert set(ArchivedRow.objects.values_list("key", flat=True)) == {rows.row_key()}
    assert ArchivedRow.objects.count() == ArchivedGame.objects.count()


def test_the_key_follows_the_template(settings):
    before = rows.row_key()
    rows.row_key.cache_clear()
    settings.TIME_ZONE = "Europe/Paris"  # the rows' dates would read differently
    try:
        assert rows.row_key() != before
    finally:
        rows.row_key.cache_clear()


@pytest.mark.parametrize("username", ["alice", "a.b+c-d_e@f", "Zoë", "名前", "x'y"])
def test_profile_paths_are_what_reverse_gives(username):
    assert rows.ProfilePaths().of(username) == reverse("player_profile", args=[username])


def test_render_stale_fills_every_missing_row(varied):
    ArchivedRow.objects.all().delete()
    from archive.models import ArchivedPlayer

    assert rows.render_stale(ArchivedGame, ArchivedPlayer, ArchivedRow, batch=2) == ArchivedGame.objects.count()
    assert rows.render_stale(ArchivedGame, ArchivedPlayer, ArchivedRow) == 0
