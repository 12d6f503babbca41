"""What the API sends and takes. Answers carry only declared fields, each filled from a selector's
result (what the game page shows that seat), never from a model or the stored position."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from ninja import Field, Schema

HistoryKind = Literal["move", "chat", "draw", "opening"]
Outcome = Literal["won", "lost", "draw"]
DrawStatus = Literal["open", "accepted", "declined", "lapsed"]


class Error(Schema):
    code: str = Field(description="A stable word to branch on, e.g. stale_ply, illegal_move, not_found.")
    message: str = Field(description="What is wrong, in words a player can read.")


# The error answers every endpoint may give (docs/api.md lists the codes behind each status).
FAILURES = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}


# ----------------------------------------------------------------------------- games, in lists


class SeatOut(Schema):
    colour: str
    name: str = Field(description="The name shown at the table.")
    username: str
    resigned: bool
    bot: str = Field(default="", description='The built-in bot playing this seat (e.g. "mcts"), or "" for a person.')


class GameSummary(Schema):
    id: int
    game: str = Field(description="The game's id in the registry, e.g. zarkcity, martianchess.")
    name: str = Field(description='E.g. "Deck Town #12".')
    options: dict[str, str]
    options_text: str
    status: Literal["open", "active", "finished"]
    seats_wanted: int
    seats: list[SeatOut]
    to_move: list[str] = Field(description="The colours to move now (several while starters are chosen).")
    your_colour: str | None
    your_turn: bool
    ply: int = Field(description="Moves made so far; send it back with a move.")
    time_limit_days: int
    is_private: bool
    turn_started_at: datetime | None
    deadline: datetime | None
    winners: list[str]
    result_reason: str
    created_at: datetime
    finished_at: datetime | None
    url: str = Field(description="The game's page.")


class InvitationOut(Schema):
    id: int
    game: GameSummary
    invited_by: str


class MyGames(Schema):
    games: list[GameSummary] = Field(
        description="Your move first (longest waiting first), then waiting on others, waiting for players, "
        "and your 20 latest finished games."
    )
    invitations: list[InvitationOut]


class GameType(Schema):
    id: str
    name: str
    player_counts: list[int]
    options: list[dict[str, Any]]
    summary: str
    bots: list[str] = Field(description="The built-in bots that play this game (the create request's `bots`).")


# ----------------------------------------------------------------------------- one game, as a seat sees it


class SeatView(SeatOut):
    facts: list[str] = Field(description='Public facts the table shows, e.g. "5 cards".')
    note: str
    you: bool
    to_move: bool


class Clock(Schema):
    colour: str
    deadline: datetime
    away_until: date | None


class DrawOfferOut(Schema):
    proposed_by: str
    accepted_by: list[str]
    waiting_for: list[str]
    you_may_answer: bool


class Winner(Schema):
    colour: str
    name: str


class ResultOut(Schema):
    winners: list[Winner]
    reason: str


class Die(Schema):
    face: str = Field(description='What the die shows: "1".."6", a pyramid die\'s "S", "M/L", a colour, "wild"...')
    title: str = Field(description='Which die it is: "pyramid die", "red\'s die".')
    colour: str = Field(description='The die\'s body colour; "" is white.')


class Throw(Schema):
    seat: str | None = Field(description="Whose throw it was (null: nobody's, e.g. a throw of the setup).")
    dice: list[Die]


class HistoryItem(Schema):
    kind: HistoryKind
    colour: str
    name: str
    text: str = Field(description="The move in notation as you may see it, the chat line, or the draw news.")
    words: str
    ply: int | None
    at: datetime | None
    dice: list[Throw] = Field(
        default_factory=list,
        description="The throws the move made (an `opening` line: the setup's), in order; never a throw to come.",
    )


class GameDetail(GameSummary):
    seed_commitment: str
    seed: str | None = Field(description="Revealed once the game is over; null before.")
    status_line: str
    private_note: str
    hand: list[str] = Field(description="Your own cards (empty for spectators and games without hands).")
    table_notes: list[str]
    seats: list[SeatView]  # type: ignore[assignment]  # the summary's seats, with what the table says of each
    clocks: list[Clock] = Field(description="Each mover's deadline (days away stop a clock).")
    can_act: bool = Field(description="Seated, not resigned, game on: you may resign or offer a draw.")
    legal_moves: list[str] = Field(description="Every move you may make now (empty when it is not your move).")
    draw_offer: DrawOfferOut | None
    result: ResultOut | None
    history: list[HistoryItem]
    history_hidden: int = Field(description="Earlier moves left out; ask with ?history=all.")
    view: dict[str, Any] | None = Field(description="The game's own view for your seat: what the board shows.")
    board_text: str


class GameEvent(Schema):
    kind: str = Field(description="The game's own word for it: draw, capture, roll, turn, end...")
    text: str = Field(description="What happened, as you may read it: a card you drew is named to you only.")
    seat: str | None = Field(description="Whose step or luck it was, if anyone's.")
    data: dict[str, Any] = Field(description='The facts behind the text you may know, e.g. {"count": 2}.')
    dice: list[Die] = Field(default_factory=list, description="The dice this event threw (its `seat` threw them).")


class MoveEvents(Schema):
    ply: int = Field(description="The move's index in the game record, from 0.")
    colour: str
    events: list[GameEvent]


class GameEvents(Schema):
    game: int
    next: int = Field(description="Moves made so far: send it back as ?since= to get only what follows.")
    revealed: bool = Field(description="The game is over: every secret (each card drawn) is shown to everyone.")
    moves: list[MoveEvents]


class MoveGroupOut(Schema):
    kind: str
    label: str
    moves: list[str]


class LegalMoves(Schema):
    game: int
    ply: int
    your_turn: bool
    moves: list[str]
    groups: list[MoveGroupOut]


# ----------------------------------------------------------------------------- writes


class MoveIn(Schema):
    move: str = Field(min_length=1, max_length=200, description='One move in the game\'s notation, e.g. "draw".')
    ply: int = Field(ge=0, description="The ply of the position you answer (the game's `ply` when you read it).")


class PlayedMove(Schema):
    game: int
    ply: int = Field(description="This move's ply (0-based).")
    colour: str
    move: str = Field(description="The move in canonical notation.")
    game_ply: int = Field(description="The game's ply after it.")
    status: str
    to_move: list[str]
    your_turn: bool = Field(description="Whether you are to move again (e.g. a discard inside the same turn).")


class DrawIn(Schema):
    action: Literal["propose", "accept", "decline"]


class DrawOut(Schema):
    game: int
    status: DrawStatus
    game_status: str


class ChatIn(Schema):
    text: str = Field(min_length=1, max_length=500)


class ChatOut(Schema):
    game: int
    colour: str
    text: str
    after_ply: int
    at: datetime


class GameIn(Schema):
    game: str = Field(description="A game id from GET /api/game-types.")
    seats: int = Field(description="How many players, bots included.")
    options: dict[str, str] = Field(default_factory=dict, description="Missing options take their defaults.")
    time_limit_days: int = 3
    is_private: bool = False
    bots: list[str] = Field(
        default_factory=list,
        description='Built-in bots (GET /api/game-types) in the seats after yours, e.g. ["random"]; '
        "when they fill the table the game starts at once.",
    )


# ----------------------------------------------------------------------------- the archive and events


class ArchivedSeat(Schema):
    colour: str
    name: str
    username: str
    outcome: Outcome
    resigned: bool


class ArchivedGameOut(Schema):
    id: int
    game: str
    name: str
    options: dict[str, str]
    options_text: str
    players: list[ArchivedSeat]
    winners: list[str]
    reason: str
    plies: int
    is_private: bool
    started_at: datetime | None
    finished_at: datetime


class ArchivePage(Schema):
    count: int
    capped: bool = Field(description="More games match than `count` says (it stops counting at 10,000).")
    page: int
    pages: int
    games: list[ArchivedGameOut]


class Event(Schema):
    type: Literal["start", "turn", "move", "chat", "end"]
    game: int
    at: datetime
    ply: int | None = None
    colour: str | None = None
    name: str | None = None
    text: str | None = Field(default=None, description="A move as your seat may see it, or the chat line.")
    words: str | None = Field(default=None, description="The move in words, as your seat may read them.")
    dice: list[Throw] | None = Field(default=None, description="A move's throws, in order (empty if it threw none).")
    winners: list[str] | None = None
    reason: str | None = None


class Events(Schema):
    events: list[Event]
    cursor: str = Field(description="Send it back as ?after= to get what happened next.")
    more: bool = Field(description="True when the answer was cut short: ask again at once.")
