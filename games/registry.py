"""The game kinds: what the shared parts of the site know of each game, asked, never imported.

Each game app (``games.hunts``, ``games.crosswords``, ``games.tow``, and any new one)
registers one ``GameKind`` in its ``AppConfig.ready()``::

    class CrosswordsConfig(AppConfig):
        def ready(self):
            from games import registry
            from .kind import KIND
            registry.register(KIND)

The shared parts (accounts, chat, friends, ratings, api, notifications, tournaments, and
config apart from its URL, ASGI and Celery wiring) ask this module about game kinds and
never import a game app: a kind is a value they ask ("what are your rating pools, how do
I export this player's games?"), in the spirit of Django's app registry, where the admin
finds the apps that registered with it and imports none of them.

The contract:

- A kind's ``code`` ("hunt", "crossword", "tow") names it everywhere (URLs, stored result
  kinds, notification kinds' prefix); ``app_label`` is the Django app that registered it.
  Codes and pool codes are unique across kinds: ``register`` refuses a clash.
- Its hooks are plain callables, each answering for the kind alone. A hook the kind has
  no answer to is ``None`` (a kind without tournaments has no ``start_game``). Hooks that
  change state run inside the caller's transaction and refuse with
  ``config.errors.Refused`` before writing anything, like any service.
- A kind that finishes a game (a crossword or TOW game, a hunt round) builds its
  ``Outcome`` and calls ``game_finished(outcome)`` inside the transaction that finishes
  it; every receiver subscribed with ``on_game_finished`` (ratings records the result,
  tournaments advance) is called there and then, in subscription order, so their writes
  commit or roll back with the game's. A receiver that raises rolls the game back too.
- Order: kinds are listed in registration order, which is ``INSTALLED_APPS`` order.

This module imports nothing of a game app (nor of Django): it holds values and callables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


@dataclass(frozen=True)
class Pool:
    """A rating ladder a kind owns: its ``code`` (URLs, the API and the database store it),
    the ``name`` people read, and its ``family``, the code of the kind that owns it."""

    code: str
    name: str
    family: str


@dataclass(frozen=True)
class HowTo:
    """A how-to-play page: ``/how-to-play/<slug>/`` renders ``template``; ``example``
    (called per request) adds what the page draws, asked of the engine."""

    slug: str
    title: str
    template: str
    example: Callable[[], Mapping[str, object]] | None = None


@dataclass(frozen=True)
class RecordFormat:
    """A file format a kind's finished games download in (``"gcg"``): ``write(game_id)``
    answers (text, file name), or None when there is no such finished game."""

    extension: str
    content_type: str
    write: Callable[[int], tuple[str, str] | None]


@dataclass(frozen=True)
class Link:
    """A link to one of the kind's pages, by URL name (``"hunts:lobby"``) and an optional
    ``#fragment``; a ``primary`` link is drawn as the main button where links are buttons."""

    label: str
    url_name: str
    fragment: str = ""
    primary: bool = False


class Emailed(StrEnum):
    """When a notice is emailed as well as shown in the site (the player may opt out)."""

    NEVER = "never"
    CORRESPONDENCE = "correspondence"  # in correspondence games only, not in live ones
    ALWAYS = "always"


@dataclass(frozen=True)
class Notice:
    """A kind of notification a game kind sends: ``code`` is what ``accounts.services.notify``
    stores ("crossword.turn"), ``label`` what it is about, ``emailed`` when it is emailed."""

    code: str
    label: str
    emailed: Emailed = Emailed.NEVER


@dataclass(frozen=True)
class Turns:
    """What the turn machinery shared by the games played in turns (``games.seating``,
    ``games.notifications``) asks of a kind played in turns.

    ``opening`` says how the opener was chosen, after their name ("moves first");
    ``queue_bot(game)`` is called when a bot is due to move or vote: it stores when and
    queues the bot's act for after the commit; ``queue_deadline(game_id, eta)`` queues,
    after the commit, the settling of a live game's deadline at ``eta`` (the kind's sweep
    settles every deadline anyway; the task only makes a live one punctual).
    """

    opening: str
    queue_bot: Callable[[object], None]
    queue_deadline: Callable[[int, datetime], None]


@dataclass(frozen=True)
class RoomKind:
    """A kind of chat room a game kind has; a room of it is named ``<code>.<object id>``.

    ``group(object_id)`` is the channel-layer group its messages go to; ``own_group`` says
    whether a reader's socket joins that group when it opens the chat (a hunt table's
    chat goes to the table's group, which every socket on the table is in already).
    ``has_chat(object_id)`` says whether the room exists and has chat at all;
    ``may_read(object_id, user)`` whether a signed-in person (not a bot) may read it,
    which chat asks before they may write; ``refusal`` tells one who may not why.
    """

    code: str
    group: Callable[[int], str]
    has_chat: Callable[[int], bool]
    may_read: Callable[[int, object], bool]
    refusal: str = "Only the players of this game can chat here."
    own_group: bool = True


@dataclass(frozen=True)
class Challenged:
    """What a challenge made: the page to go to and, when it keeps a seat at a live game
    (a hunt table) for the challenged player, that ``seat`` (the kind's id of it) and
    ``what`` it is ("a Word Rampage table"): friends then keeps an invitation to it."""

    url: str
    seat: int | None = None
    what: str = ""


@dataclass(frozen=True)
class Challenge:
    """How one player challenges another to a game of the kind (friends' challenge page).

    ``games`` are (code, label) of the games one may challenge to; ``fields()`` the form
    fields the kind needs besides the game (name -> Django form field, names the kind's
    own). ``send(by=, other=, game=, settings=, expires_at=) -> Challenged`` makes the
    challenge in the caller's transaction: a game's own invitation (which its seating
    counts against the sender's allowance), or a seat kept until ``expires_at``. A kind
    that keeps seats takes one with ``take_seat(seat, user)`` and gives one up with
    ``free_seat(seat, user)``.
    """

    games: tuple[tuple[str, str], ...]
    fields: Callable[[], Mapping[str, object]]
    send: Callable[..., Challenged]
    take_seat: Callable[[int, object], object] | None = None
    free_seat: Callable[[int, object], None] | None = None

    @property
    def keeps_seats(self) -> bool:
        return self.take_seat is not None


@dataclass(frozen=True)
class Invitations:
    """How a kind's own invitations and open seeks count against their sender's allowance
    (``friends.limits``, which counts every kind's together with the hunt challenges).

    ``open(sender, invitee)`` counts the sender's invitations still waiting for an answer
    (to ``invitee`` only, unless None); ``seeks(sender)`` their open seeks still waiting
    for a player; ``sent_since(sender, since)`` the invitations (one per invited player,
    answered or not) and seeks they made after ``since``.
    """

    open: Callable[[object, object | None], int]
    seeks: Callable[[object], int]
    sent_since: Callable[[object, datetime], int]


@dataclass(frozen=True)
class Playing:
    """What a player is in the middle of in a kind, as their friends read it (``text``:
    "1 crossword game", "at a Word Rampage table") and a page to watch it, if any."""

    text: str
    watch_url: str = ""


@dataclass(frozen=True)
class Listing:
    """Some of a kind's games in one section of a shared page, drawn by the kind's
    ``template`` (a template's name, or a compiled template), which is given them as
    ``items`` and the section's code as ``section``."""

    template: str | object
    items: Sequence[object]


@dataclass(frozen=True)
class Card:
    """A card of the kind's own on a shared page: ``template`` (a name, or a compiled
    template) drawn with ``context`` as ``card``."""

    template: str | object
    context: Mapping[str, object]


@dataclass(frozen=True)
class MyGames:
    """A kind's part of the My games page and of the header's turn badge.

    ``listings(user)`` maps the page's sections — ``my_turn``, ``invitations``,
    ``their_turn``, ``starting``, ``seeks`` (open seeks the player could take) and
    ``finished`` — to the player's games of the kind there (a section the kind leaves out
    has none of them); ``card(user)`` is a card of the kind's own, for games that fit no
    section (hunt tables, the ranked queue); ``awaiting(user)`` counts the games waiting
    for the player's move or vote (the badge); ``links`` are the page's buttons to start
    a game of the kind and ``stylesheets`` the static files its templates need. A change to one of a player's games is told with
    ``accounts.my_games.games_changed`` (the page and the badge refresh).
    """

    listings: Callable[[object], Mapping[str, Listing]] | None = None
    card: Callable[[object], Card] | None = None
    awaiting: Callable[[object], int] | None = None
    links: tuple[Link, ...] = ()
    stylesheets: tuple[str, ...] = ()


class Ended(StrEnum):
    """How one player's part in a game ended."""

    PLAYED = "played"  # to the end
    RESIGNED = "resigned"
    FORFEITED = "forfeited"  # ran out of time
    LEFT = "left"  # stood up from a live table before the end


class Ending(StrEnum):
    """How a whole game ended."""

    NORMAL = "normal"  # by the game's own rules (an empty bag, a round's clock)
    RESIGNED = "resigned"  # a player resigned and that ended it
    FORFEITED = "forfeited"  # a player's time ran out and that ended it
    LEFT = "left"  # players left a live game before its end
    ABANDONED = "abandoned"  # it ended before anyone moved


@dataclass(frozen=True)
class PlayerResult:
    """One seated player's finish: ``place`` 1 is first and equal places tie; ``moves``
    counts their own moves (plays, swaps and passes; a hunter's words found);
    ``share_played`` is, in a hunt round, the share of the round's time they stayed
    seated (1.0 to the end), None in games played in turns."""

    user_id: int
    place: int
    score: int = 0
    ended: Ended = Ended.PLAYED
    moves: int = 0
    is_bot: bool = False
    share_played: float | None = None

    @property
    def left(self) -> bool:
        """Whether they did not play to the end (resigned, forfeited or left)."""
        return self.ended != Ended.PLAYED


@dataclass(frozen=True)
class Outcome:
    """A finished game as the shared parts read it: ratings decide from it whether the game
    is rated (the fair-play rules read it there, in one place), tournaments score it.

    ``object_id`` is the kind's own id of what finished (a game, or a hunt round);
    ``(kind, object_id)`` names it once. ``pool`` is the rating pool it belongs to,
    ``ranked`` whether its players asked for it to count."""

    kind: str
    object_id: int
    pool: str
    ranked: bool
    ending: Ending
    players: tuple[PlayerResult, ...]
    finished_at: datetime
    url: str = ""

    @property
    def moves(self) -> int:
        """Every player's moves together."""
        return sum(player.moves for player in self.players)


@dataclass(frozen=True)
class Record:
    """A player's finished games in one of a kind's pools, as their profile counts them
    (casual games too): how many, how many won, the average score, and the latest
    outcomes newest first ("won", "drew" or "lost"), for the current streak."""

    pool: str
    games: int
    wins: int
    average_score: float | None = None
    recent: tuple[str, ...] = ()


@dataclass(frozen=True)
class Statistics:
    """What a player's profile shows of a kind: ``records(user, recent)`` per pool (with
    at most ``recent`` latest outcomes each), ``opponents(user)`` (for each opponent's
    user id: games, wins and draws against them) and ``best_plays(user, viewer)``, a card
    of the player's best plays as ``viewer`` may see them (its context names each play;
    None values are plays not made yet)."""

    records: Callable[[object, int], Sequence[Record]] | None = None
    opponents: Callable[[object], Mapping[int, tuple[int, int, int]]] | None = None
    best_plays: Callable[[object, object], Card] | None = None


@dataclass(frozen=True)
class GameRef:
    """A game a tournament started: which kind, the kind's id of it, and its page."""

    kind: str
    id: int
    url: str


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament may choose for its games in one of the kind's pools, as a
    director's form asks it.

    ``fields(pool)`` are the form fields (name -> Django form field, with the kind's own
    choices, initial values and validation; names the kind's own; none if the pool's
    games have nothing to choose); ``start(pool, values)`` turns those fields' cleaned
    values into the settings ``start_game`` takes for a game of that pool (the pool's own
    settings with them: a crossword variant, a hunt's grid). ``formats`` are the event
    formats its games suit: an arena's rounds of minutes, or the one-game pairings of a
    Swiss and a round robin.
    """

    fields: Callable[[str], Mapping[str, object]]
    start: Callable[[str, Mapping[str, object]], Mapping[str, object]]
    formats: tuple[str, ...] = ("swiss", "roundrobin")


@dataclass(frozen=True)
class GameKind:
    """Everything the shared parts need of one kind of game.

    Identity: ``code``, ``name``, the ``app_label`` that registered it.
    Pages: ``how_to_play`` (its how-to pages), ``lobby`` (where to start a game, linked
    from the header), ``my_games`` (its part of My games and of the turn badge),
    ``websocket_routes()`` (its sockets' URL patterns, read once the apps are loaded).
    Ratings: ``pools`` it owns (a finished game names one in its ``Outcome``) and the
    ``statistics`` a profile shows.
    Chat: ``rooms``, the kinds of chat room its games have.
    Notifications: ``notices``, the kinds of notification it sends and when they are
    emailed. A kind played in turns has ``turns`` (its bots' and deadlines' hooks).
    Friends: ``challenge`` (how one challenges a friend to it), ``invitations`` (how its
    own invitations and seeks count against a sender's limits), ``playing(user_ids)``
    (what each of them is in the middle of) and ``expire_waiting(now)`` (cancel the games
    that waited too long for their players; returns how many).
    Players' data: ``export_player(user) -> dict`` (everything of this kind that is the
    player's, as JSON-ready values) and ``forget_player(user)`` (run in the account's
    deletion transaction: the player's unfinished games end as if they left, so nobody
    waits for them; finished games stay, for the other players' records).
    Tournaments: ``start_game(players, settings) -> GameRef`` starts a game between
    ``players`` (users, seated in that order, every seat accepted; ``settings`` are the
    kind's own, such as a variant and the time per move) and ``game_outcome(ref)`` reads
    how a game ended (None while it is being played); ``resign_player(ref, user)`` ends
    ``user``'s part in that game as if they gave up (a game played in turns is resigned,
    a hunter stands up from the table), so the others play on or win, and does nothing if
    their part is over already (a withdrawal from the event); ``busy_players(user_ids)``
    maps those of the players who cannot sit down now at a live game arranged for them
    (waiting in the kind's ranked queue, playing one of its ranked rounds) to the reason
    they read, so an arena refuses them at its door and seats them only once free;
    ``tournament_settings`` says what a director chooses for an event's games.
    Records: ``records``, the file formats its finished games download in (the API);
    ``game_clock(game_id, now)`` a game's clock as the API answers it at ``now``
    (JSON-ready: its ``status`` and ``clock``, None if it has none), None if there is
    no such game.
    """

    code: str
    name: str
    app_label: str
    pools: tuple[Pool, ...] = ()
    how_to_play: tuple[HowTo, ...] = ()
    lobby: tuple[Link, ...] = ()
    websocket_routes: Callable[[], Sequence[object]] | None = None
    rooms: tuple[RoomKind, ...] = ()
    notices: tuple[Notice, ...] = ()
    turns: Turns | None = None
    my_games: MyGames | None = None
    statistics: Statistics | None = None
    challenge: Challenge | None = None
    invitations: Invitations | None = None
    playing: Callable[[Sequence[int]], Mapping[int, Playing]] | None = None
    expire_waiting: Callable[[datetime], int] | None = None
    export_player: Callable[[object], dict] | None = None
    forget_player: Callable[[object], None] | None = None
    start_game: Callable[[Sequence[object], Mapping[str, object]], GameRef] | None = None
    game_outcome: Callable[[GameRef], Outcome | None] | None = None
    resign_player: Callable[[GameRef, object], None] | None = None
    busy_players: Callable[[Sequence[int]], Mapping[int, str]] | None = None
    tournament_settings: TournamentSettings | None = None
    records: tuple[RecordFormat, ...] = ()
    game_clock: Callable[[int, datetime], Mapping[str, object] | None] | None = None

    def pool(self, code: str) -> Pool:
        """This kind's pool ``code``; KeyError if it has none by that code."""
        for pool in self.pools:
            if pool.code == code:
                return pool
        raise KeyError(code)


class RegistryError(ValueError):
    """A kind that cannot be registered as given, or a lookup of one that is not."""


_kinds: dict[str, GameKind] = {}
_receivers: list[Callable[[Outcome], None]] = []


def register(kind: GameKind) -> GameKind:
    """Add ``kind``; registering the same value again changes nothing. Refuses a code,
    app label or pool code another kind has."""
    if _kinds.get(kind.code) == kind:
        return kind
    if kind.code in _kinds:
        raise RegistryError(f"A game kind {kind.code!r} is registered already.")
    for other in _kinds.values():
        if other.app_label == kind.app_label:
            raise RegistryError(f"The app {kind.app_label!r} registered the kind {other.code!r} already.")
        clash = {pool.code for pool in other.pools} & {pool.code for pool in kind.pools}
        if clash:
            raise RegistryError(f"The kind {other.code!r} owns the pool(s) {', '.join(sorted(clash))} already.")
        clash = {room.code for room in other.rooms} & {room.code for room in kind.rooms}
        if clash:
            raise RegistryError(f"The kind {other.code!r} has the room kind(s) {', '.join(sorted(clash))} already.")
    codes = [pool.code for pool in kind.pools]
    if len(set(codes)) != len(codes):
        raise RegistryError(f"The kind {kind.code!r} names a pool twice.")
    if any(pool.family != kind.code for pool in kind.pools):
        raise RegistryError(f"The pools of {kind.code!r} must have it as their family.")
    _kinds[kind.code] = kind
    return kind


def unregister(code: str) -> None:
    """Remove the kind ``code`` (a test's toy kind); nothing if it is not registered."""
    _kinds.pop(code, None)


def kinds() -> tuple[GameKind, ...]:
    """Every registered kind, in registration order."""
    return tuple(_kinds.values())


def kind(code: str) -> GameKind:
    """The kind ``code``; RegistryError if none is registered by that code."""
    try:
        return _kinds[code]
    except KeyError:
        raise RegistryError(f"No game kind {code!r}.") from None


def kind_of_app(app_label: str) -> GameKind:
    """The kind the app ``app_label`` registered (a game row's ``_meta.app_label``)."""
    for candidate in _kinds.values():
        if candidate.app_label == app_label:
            return candidate
    raise RegistryError(f"The app {app_label!r} registered no game kind.")


def pools() -> tuple[Pool, ...]:
    """Every kind's pools: the kinds in order, each kind's pools in its own order."""
    return tuple(pool for registered in _kinds.values() for pool in registered.pools)


def pool(code: str) -> Pool:
    """The pool ``code`` of whichever kind owns it; RegistryError if none does."""
    for candidate in pools():
        if candidate.code == code:
            return candidate
    raise RegistryError(f"No rating pool {code!r}.")


def room_kind(code: str) -> RoomKind:
    """The room kind ``code`` of whichever kind has it; RegistryError if none does."""
    for registered in _kinds.values():
        for room in registered.rooms:
            if room.code == code:
                return room
    raise RegistryError(f"No chat room kind {code!r}.")


def hooks(name: str) -> Iterator[tuple[GameKind, Callable]]:
    """(kind, its hook ``name``) for every kind that answers that hook."""
    for registered in _kinds.values():
        hook = getattr(registered, name)
        if hook is not None:
            yield registered, hook


def on_game_finished(receiver: Callable[[Outcome], None]) -> Callable[[Outcome], None]:
    """Call ``receiver(outcome)`` whenever a game of any kind finishes (inside its
    finishing transaction). Subscribing the same receiver twice subscribes it once."""
    if receiver not in _receivers:
        _receivers.append(receiver)
    return receiver


def off_game_finished(receiver: Callable[[Outcome], None]) -> None:
    """Stop calling ``receiver`` (a test's own); nothing if it was not subscribed."""
    if receiver in _receivers:
        _receivers.remove(receiver)


def game_finished(outcome: Outcome) -> None:
    """Tell every receiver that ``outcome``'s game finished. The kind calls this inside
    the transaction that finishes the game, once per game."""
    kind(outcome.kind)  # an outcome of a kind nobody registered is a programming error
    for receiver in tuple(_receivers):
        receiver(outcome)
