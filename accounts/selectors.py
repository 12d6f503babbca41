"""Reads for accounts: the names players are shown by, and which players are built-in bots."""

from __future__ import annotations

import re
import unicodedata

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ObjectDoesNotExist
from icu import SpoofChecker  # type: ignore[import-untyped]  # PyICU ships no type information

from engine import bots

# Characters that draw nothing, or nothing but blank space, beyond the format (Cf) category:
# the Hangul and Braille fillers and the combining grapheme joiner.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")


# ICU's implementation of Unicode TR39 (docs/dependencies.md): one checker, read-only after it is made.
SPOOF_CHECKER = SpoofChecker()


def name_key(name: str) -> str:
    """What a name looks like, for telling names apart: NFKC, without invisible characters, spaces
    collapsed, case folded, then its confusable skeleton (Unicode TR39: each character replaced by the
    one it is drawn like). "Bob", "ｂｏｂ", "b\u200bob" and "bоb" (a Cyrillic о) have one key. Case is folded first
    (so "ALICE" is "alice", though the skeleton draws a capital I as l): a Cyrillic capital В, folded to
    в, reads as a small capital B, not as b."""
    # Folded again: the skeleton may map a small letter to a capital one, and two names that differ
    # only by case are the same name here.
    return str(SPOOF_CHECKER.getSkeleton(0, folded(name))).casefold()


def folded(name: str) -> str:
    """NFKC, without invisible characters, spaces collapsed, case folded: a name as typed, for
    patterns (a bot's username); name_key for telling names apart."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf" and c not in INVISIBLE)
    return " ".join(text.split()).casefold()


def chosen_name_of(user: AbstractBaseUser) -> str:
    """The chosen display name, else the username (a player's own pages, greetings)."""
    try:
        name: str = user.profile.name  # type: ignore[attr-defined]  # User's profile, not AbstractBaseUser's
        return name
    except ObjectDoesNotExist:  # users made outside sign-up (admin, shell) may not have one yet
        return user.get_username()


def display_name_of(user: AbstractBaseUser) -> str:
    """The name shown wherever players are listed: "Alice (@alice2)" when the chosen name is not the
    username, so two players can always be told apart (usernames are unique, display names are only
    kept from looking like one another)."""
    name, username = chosen_name_of(user), user.get_username()
    if name_key(name) == name_key(username):
        return name
    return f"{name} (@{username})"


# A bot's username: its engine name, "-bot", and from the second of a kind at one table a number ("mcts-bot-2").
BOT_USERNAME = re.compile(r"(?P<bot>[a-z0-9]+)-bot(?:-(?P<number>[0-9]+))?")


def bot_username(bot: str, number: int) -> str:
    """The username of the `number`th account of this bot: "mcts-bot", then "mcts-bot-2"..."""
    return f"{bot}-bot" if number == 1 else f"{bot}-bot-{number}"


def reads_as_bot_name(name: str) -> bool:
    """Whether a name reads as a bot account's username ("MCTS-Bot-2"): kept for the bots, so that a
    person cannot pass for one (or be taken for one)."""
    match = BOT_USERNAME.fullmatch(folded(name))  # the skeleton would draw "mcts" as "rncts"
    if match is None:
        return False
    try:
        bots.bot_info(match["bot"])
    except ValueError:
        return False
    return True


def bot_of(user: AbstractBaseUser) -> str:
    """The engine bot this user is (e.g. "mcts"), or "" for a person."""
    try:
        return str(user.profile.bot)  # type: ignore[attr-defined]
    except ObjectDoesNotExist:
        return ""


def bot_label_of(user: AbstractBaseUser) -> str:
    """What pages call this bot ("MCTS"), or "" for a person."""
    name = bot_of(user)
    try:
        return bots.bot_info(name).label if name else ""
    except ValueError:  # a bot the engine no longer has is still a bot
        return name
