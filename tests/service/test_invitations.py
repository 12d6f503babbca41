"""Invitations end to end: by username and by email, the signed link (forged, tampered, expired),
accepting, declining, and signing up through the link."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import unquote, urlencode

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from games import services
from games.emails import invitation_id_from_token, invitation_token
from games.models import Game, Invitation

# The email is an outbox row a worker sends after commit: `eager` runs the task in this process, so
# tests that run the on-commit callbacks (`invite`) find the message in mail.outbox.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]

PASSWORD = "a much longer passphrase 42"


@pytest.fixture
def game(alice):
    return services.game_create(
        creator=alice, seats=3, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )


def invite(client, game, who, capture):
    with capture(execute=True):
        return client.post(reverse("game_invite", args=[game.pk]), {"who": who}, follow=True)


def link_path(message) -> str:
    found = re.search(r"https?://[^/\s]+(/invitations/[^/\s]+/)", message.body)
    assert found, message.body
    return found.group(1)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_invite_by_username_emails_them_and_shows_on_their_dashboard(
    client, alice, bob, game, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    response = invite(client, game, "bob", django_capture_on_commit_callbacks)
    assert "Invitation sent to bob." in messages_of(response)
    invitation = Invitation.objects.get()
    assert (invitation.user, invitation.email, invitation.invited_by) == (bob, "", alice)
    (message,) = mail.outbox
    assert message.to == ["bob@example.com"] and "alice invites you" in message.subject
    assert invitation_id_from_token(link_path(message).split("/")[2]) == invitation.pk

    client.force_login(bob)
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "alice invites you" in dashboard
    accept = client.post(link_path(message), {"answer": "accept"})
    assert accept["Location"] == reverse("game_lobby", args=[game.pk])
    assert list(game.seats.values_list("user__username", flat=True)) == ["alice", "bob"]


def test_invite_by_email_sends_text_and_html_with_a_signed_link(
    client, alice, game, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    invite(client, game, "Newcomer@Example.org", django_capture_on_commit_callbacks)
    invitation = Invitation.objects.get()
    assert invitation.email == "newcomer@example.org" and invitation.user is None
    (message,) = mail.outbox
    assert message.to == ["newcomer@example.org"]
    path = link_path(message)
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and path in html
    assert "sign up with this email address" in message.body
    assert "Seats taken: 1 of 3." in message.body and "Seats taken: 1 of 3." in html
    assert invitation_id_from_token(path.split("/")[2]) == invitation.pk


def test_seated_players_see_who_was_invited(client, alice, game, django_capture_on_commit_callbacks):
    client.force_login(alice)
    invite(client, game, "pal@example.org", django_capture_on_commit_callbacks)
    room = client.get(reverse("game_lobby", args=[game.pk])).content.decode()
    assert "pal@example.org" in room


@pytest.mark.parametrize(
    ("who", "message"),
    [
        ("nobody", "There is no player called 'nobody'."),
        ("not@an@address", "is not an email address"),
        ("alice", "alice already has a seat in this game."),
    ],
)
def test_invite_errors_are_shown_on_the_waiting_room(
    client, alice, game, who, message, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    response = invite(client, game, who, django_capture_on_commit_callbacks)
    assert any(message in text for text in messages_of(response))
    assert not Invitation.objects.exists() and not mail.outbox


def test_only_seated_players_invite(client, bob, charlie, game, django_capture_on_commit_callbacks):
    client.force_login(bob)
    response = invite(client, game, "charlie", django_capture_on_commit_callbacks)
    assert "Only a player seated in this game can invite others to it." in messages_of(response)


def test_inviting_twice_is_refused(client, alice, bob, game, django_capture_on_commit_callbacks):
    client.force_login(alice)
    invite(client, game, "bob", django_capture_on_commit_callbacks)
    response = invite(client, game, "bob", django_capture_on_commit_callbacks)
    assert "bob has already been invited to this game." in messages_of(response)
    assert len(mail.outbox) == 1


def test_decline_from_the_dashboard(client, alice, bob, game):
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    client.force_login(bob)
    response = client.post(reverse("invitation", args=[invitation_token(invitation.pk)]), {"answer": "decline"})
    assert response["Location"] == reverse("dashboard")
    invitation.refresh_from_db()
    assert invitation.declined_at is not None
    assert "invites you" not in client.get(reverse("dashboard")).content.decode()


def test_someone_else_cannot_use_an_invitation(client, alice, bob, charlie, game):
    invitation = services.invitation_create(game=game, invited_by=alice, username="bob")
    client.force_login(charlie)
    url = reverse("invitation", args=[invitation_token(invitation.pk)])
    response = client.post(url, {"answer": "accept"}, follow=True)
    assert "This invitation is addressed to someone else." in messages_of(response)
    assert game.seats.count() == 1


def test_accepting_the_last_seat_starts_the_game(client, alice, bob, charlie):
    game = services.game_create(
        creator=alice, seats=2, game="zarkcity", options={"deck": "standard"}, time_limit_days=3, is_private=True
    )
    invitation = services.invitation_create(game=game, invited_by=alice, email="bob@example.com")
    client.force_login(bob)
    client.post(reverse("invitation", args=[invitation_token(invitation.pk)]), {"answer": "accept"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page = client.get(reverse("invitation", args=[invitation_token(invitation.pk)]))
    assert b"already started" in page.content


# ----------------------------------------------------------------------------- bad links


def test_a_tampered_link_is_a_clear_error_page(client, alice, game):
    invitation = services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    token = invitation_token(invitation.pk)
    tampered = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    response = client.get(reverse("invitation", args=[tampered]))
    assert response.status_code == 400
    assert b"This invitation link is not valid" in response.content


def test_a_forged_link_for_another_invitation_is_refused(client, alice, game):
    services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    forged = signing.dumps(1, salt="zarkcity.invitation", key="not the site's secret key")
    for token in (forged, "1", "garbage:with:colons", signing.dumps(1)):  # the last: right key, wrong salt
        response = client.get(reverse("invitation", args=[token]))
        assert response.status_code == 400 and b"not valid" in response.content
        assert client.post(reverse("invitation", args=[token]), {"answer": "accept"}).status_code == 400


def test_a_link_to_a_deleted_invitation_is_refused(client):
    response = client.get(reverse("invitation", args=[invitation_token(12345)]))
    assert response.status_code == 400 and b"not valid" in response.content


def test_an_expired_link_says_it_has_expired(client, alice, game):
    invitation = services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    token = invitation_token(invitation.pk)
    with time_machine.travel(timezone.now() + timedelta(days=31)):
        response = client.get(reverse("invitation", args=[token]))
    assert response.status_code == 400
    assert b"This invitation link has expired" in response.content


# ----------------------------------------------------------------------------- signing up through the link


def test_a_newcomer_signs_up_through_the_invitation_and_lands_back_on_it(
    client, alice, game, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    invite(client, game, "newcomer@example.org", django_capture_on_commit_callbacks)
    path = link_path(mail.outbox[0])
    client.logout()
    mail.outbox.clear()

    page = client.get(path).content.decode()
    signup_url = f"{reverse('account_signup')}?next={path}"
    assert "alice" in page and reverse("account_signup") in page
    form = client.get(signup_url).content.decode()
    assert 'value="newcomer@example.org"' in form  # the address the link reached

    data = {"email": "newcomer@example.org", "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(signup_url, data)
    assert response["Location"] == path  # no second verification email: the link proved the address
    assert not mail.outbox

    accepted = client.post(path, {"answer": "accept"})
    assert accepted["Location"] == reverse("game_lobby", args=[game.pk])
    newcomer = get_user_model().objects.get(username="newcomer")
    assert list(game.seats.values_list("user", flat=True)) == [alice.pk, newcomer.pk]


def test_a_newcomer_with_another_address_verifies_it_and_still_comes_back(
    client, alice, game, django_capture_on_commit_callbacks
):
    invitation = services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    path = reverse("invitation", args=[invitation_token(invitation.pk)])
    client.get(path)
    data = {"email": "other@example.org", "username": "pal", "password1": PASSWORD, "password2": PASSWORD}
    client.post(f"{reverse('account_signup')}?next={path}", data)
    (message,) = mail.outbox  # this address is not proven yet: the usual confirmation email
    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", message.body).group(1)
    assert client.post(confirm)["Location"] == path
    pal = get_user_model().objects.get(username="pal")
    assert list(pal.emailaddress_set.values_list("email", "verified")) == [("other@example.org", True)]
    # The invitation went to another address: it stays that address's.
    response = client.post(path, {"answer": "accept"}, follow=True)
    assert "This invitation is addressed to someone else." in messages_of(response)


def test_a_visitor_posting_an_answer_is_sent_to_log_in(client, alice, game):
    invitation = services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    path = reverse("invitation", args=[invitation_token(invitation.pk)])
    response = client.post(path, {"answer": "accept"})
    assert response["Location"] == f"{reverse('account_login')}?{urlencode({'next': path}, safe='/')}"


def test_the_wrong_user_is_told_before_clicking_accept(client, alice, bob, charlie, game):
    by_name = services.invitation_create(game=game, invited_by=alice, username="bob")
    by_email = services.invitation_create(game=game, invited_by=alice, email="pal@example.org")
    client.force_login(charlie)
    for invitation in (by_name, by_email):
        page = client.get(reverse("invitation", args=[invitation_token(invitation.pk)])).content.decode()
        assert "This invitation is addressed to someone else" in page
        assert "Accept and take a seat" not in page
    client.force_login(bob)
    page = client.get(reverse("invitation", args=[invitation_token(by_name.pk)])).content.decode()
    assert "Accept and take a seat" in page and "addressed to someone else" not in page


def test_every_sign_up_and_log_in_link_on_an_invitation_comes_back_to_it(client, alice, game):
    invitation = services.invitation_create(game=game, invited_by=alice, email="newcomer@example.org")
    path = reverse("invitation", args=[invitation_token(invitation.pk)])
    page = client.get(path).content.decode()
    links = re.findall(r'href="(/accounts/(?:signup|login)/[^"]*)"', page)
    assert len(links) == 4  # the page's own buttons and the header's
    assert all(unquote(link).endswith(f"?next={path}") for link in links), links

    data = {"email": "newcomer@example.org", "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD}
    header_signup = re.search(r'<header.*?href="(/accounts/signup/[^"]*)"', page, re.S).group(1)
    assert client.post(unquote(header_signup), data)["Location"] == path
