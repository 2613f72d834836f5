"""GCG, the game record Quackle, Macondo and Woogles read: a finished crossword game
written as one, and one read back.

A record is ``#`` pragmas (the encoding first, then the players, the lexicon, the
game's id) and one line per event, each ending in the player's running total::

    >ann: AEINRST 8D RETAINS +74 74      a play: where its main word starts ("8D": row 8,
                                         column D, across; "D8": down) and the word, a
                                         tile already on the board written "." and a
                                         blank in lower case
    >bob: ABCDEFG -AB +0 0               a swap of A and B
    >bob: ABCDEFG - +0 0                 a pass
    >ann: (DGS) +5 300                   the others' racks, gained by going out
    >bob: DGS (DGS) -5 120               a rack left at the end, lost
    >bob: DGS (time) -20 100             a clocked game's points lost for overtime

A resignation, a forfeit and a redeal have no line of their own in GCG: each is a
``#note`` after the event before it. Racks write a blank as ``?``. Games of three or four
players name ``#player3`` and ``#player4`` as well (readers of two-player files stop at
two). Pure: a game is replayed from its seed and moves to write it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from . import crossword_game
from .crossword import COLUMN_NAMES, SIZE, Board, Variant, word_through

ENCODING = "#character-encoding UTF-8"


class GCGError(ValueError):
    """A line that is not GCG, with what is wrong with it."""


@dataclass(frozen=True)
class Event:
    """One line of the game: ``kind`` is "play", "swap", "pass", "out" (the others' racks
    gained, ``tiles``), "left" (``tiles`` left on the rack, lost) or "time" (points lost
    for going over the time)."""

    player: str
    kind: str
    score: int
    total: int
    rack: str = ""
    position: str = ""
    word: str = ""
    tiles: str = ""


@dataclass(frozen=True)
class Note:
    """A ``#note`` line: what the event before it does not say."""

    text: str


@dataclass(frozen=True)
class Record:
    """A game as GCG holds it: players as (nickname, full name), in seat order."""

    players: tuple[tuple[str, str], ...]
    events: tuple[Event | Note, ...] = ()
    lexicon: str = ""
    title: str = ""
    game_id: str = ""
    pragmas: tuple[str, ...] = field(default=())  # other pragmas read, as written

    def totals(self) -> dict[str, int]:
        """Each player's last running total (0 for one with no event)."""
        totals = {nick: 0 for nick, _ in self.players}
        for event in self.events:
            if isinstance(event, Event):
                totals[event.player] = event.total
        return totals


# -- positions ------------------------------------------------------------------------


def position(row: int, col: int, across: bool) -> str:
    """GCG's name of a word's first square: row then column across ("8D"), column then
    row down ("D8")."""
    return f"{row + 1}{COLUMN_NAMES[col]}" if across else f"{COLUMN_NAMES[col]}{row + 1}"


def parse_position(text: str) -> tuple[int, int, bool]:
    """(row, col, across) of a position such as "8D" or "D8"."""
    match = re.fullmatch(r"(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2})", text)
    if not match:
        raise GCGError(f"not a position: {text!r}")
    across = match.group(1) is not None
    number, letter = (match.group(1), match.group(2)) if across else (match.group(4), match.group(3))
    row, col = int(number) - 1, COLUMN_NAMES.find(letter.upper())
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise GCGError(f"off the board: {text!r}")
    return row, col, across


def play_line(board_after: Board, placement: Sequence[Sequence], across: bool) -> tuple[str, str]:
    """The position and the word of a play, read on the board after it: tiles already on
    the board before are written ".", blanks in lower case."""
    new = {(row, col) for row, col, *_ in placement}
    first_row, first_col = min(new)
    line = word_through(board_after, first_row, first_col, across=across)
    word = "".join(
        letter.lower() if blank else letter.upper() if (row, col) in new else "." for row, col, letter, blank in line
    )
    return position(line[0][0], line[0][1], across), word


def placement(board: Board, where: str, word: str) -> tuple[tuple[int, int, str, bool], ...]:
    """The tiles a play line puts down on ``board``: each letter of ``word`` on an empty
    square from ``where``; "." (or a letter on a square already filled) is the board's."""
    row, col, across = parse_position(where)
    tiles = []
    for offset, letter in enumerate(word):
        r, c = (row, col + offset) if across else (row + offset, col)
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise GCGError(f"{word} from {where} runs off the board")
        if letter == "." or board.letter(r, c) is not None:
            if board.letter(r, c) is None:
                raise GCGError(f"{word} from {where} plays through an empty square")
            continue
        if not letter.isalpha():
            raise GCGError(f"not a tile: {letter!r} in {word}")
        tiles.append((r, c, letter.lower(), letter.islower()))
    return tuple(tiles)


# -- writing ----------------------------------------------------------------------------


def _tiles(text: str) -> str:
    return text.upper()


def record_of(
    variant: Variant,
    seed,
    moves: Iterable[crossword_game.Move],
    lexicon,
    *,
    players: Sequence[tuple[str, str]],
    game_number: int = 1,
    lexicon_name: str = "",
    title: str = "",
    game_id: str = "",
    time_penalties: Sequence[int] = (),
) -> Record:
    """Replay a game from its seed and moves and write down each event, the end's rack
    points included (``players``: each seat's nickname, with no spaces, and full name),
    then a clocked game's ``time_penalties`` by seat (``clock.penalties``)."""
    names = [nick for nick, _ in players]
    game = crossword_game.new_game(variant, len(players), seed, lexicon, game_number)
    totals = [0] * len(players)
    events: list[Event | Note] = []
    for move in moves:
        seat, rack = move.seat, game.racks[move.seat]
        game = game.apply(move)
        turn = game.turns[-1]
        totals[seat] += turn.score
        player = names[seat]
        if move.kind == crossword_game.PLACE:
            where, word = play_line(game.board, turn.play.placement, turn.play.across)
            events.append(Event(player, "play", turn.score, totals[seat], _tiles(rack), where, word))
        elif move.kind == crossword_game.SWAP:
            events.append(Event(player, "swap", 0, totals[seat], _tiles(rack), tiles=_tiles(move.tiles)))
        elif move.kind == crossword_game.PASS:
            events.append(Event(player, "pass", 0, totals[seat], _tiles(rack)))
        else:  # a resignation or a forfeit
            events.append(Note(f"{player} {'resigned' if move.kind == crossword_game.RESIGN else 'forfeited'}."))
        if turn.redeal:
            events.append(Note("Two passes open the game: both racks go back to the bag and new ones are drawn."))
    if game.is_over and any(game.adjustments):
        # The one who went out first (gaining the others' racks), then each rack lost.
        order = sorted(range(len(players)), key=lambda seat: seat != game.went_out)
        for seat in order:
            change = game.adjustments[seat]
            if not change:
                continue
            totals[seat] += change
            if seat == game.went_out:
                others = "".join(game.racks[other] for other in range(len(players)) if other != seat)
                events.append(Event(names[seat], "out", change, totals[seat], tiles=_tiles(others)))
            else:
                rack = _tiles(game.racks[seat])
                events.append(Event(names[seat], "left", change, totals[seat], rack, tiles=rack))
    for seat, penalty in enumerate(time_penalties if game.is_over else ()):
        if penalty:
            totals[seat] -= penalty
            events.append(Event(names[seat], "time", -penalty, totals[seat], _tiles(game.racks[seat])))
    return Record(tuple(players), tuple(events), lexicon_name, title, game_id)


def _signed(points: int) -> str:
    return f"+{points}" if points >= 0 else f"-{-points}"


def _line(event: Event) -> str:
    lead = f">{event.player}: "
    if event.kind == "play":
        body = f"{event.rack} {event.position} {event.word}"
    elif event.kind == "swap":
        body = f"{event.rack} -{event.tiles}"
    elif event.kind == "pass":
        body = f"{event.rack} -"
    elif event.kind == "out":
        body = f"({event.tiles})"
    elif event.kind == "left":
        body = f"{event.rack} ({event.tiles})"
    elif event.kind == "time":
        body = f"{event.rack} (time)".lstrip()
    else:
        raise GCGError(f"no GCG line for a {event.kind!r} event")
    return f"{lead}{body} {_signed(event.score)} {event.total}"


def write(record: Record) -> str:
    """The record as GCG text, lines ending in a newline."""
    lines = [ENCODING]
    for number, (nick, name) in enumerate(record.players, 1):
        if not nick or re.search(r"\s", nick):
            raise GCGError(f"a nickname has no spaces: {nick!r}")
        lines.append(f"#player{number} {nick} {name or nick}".rstrip())
    if record.title:
        lines.append(f"#title {record.title}")
    if record.game_id:
        lines.append(f"#id {record.game_id}")
    if record.lexicon:
        lines.append(f"#lexicon {record.lexicon}")
    for event in record.events:
        lines.append(f"#note {event.text}" if isinstance(event, Note) else _line(event))
    return "\n".join(lines) + "\n"


# -- reading ----------------------------------------------------------------------------

_MOVE = re.compile(r">(?P<player>\S+?):\s+(?P<body>.*?)\s+(?P<score>[+-]\d+)\s+(?P<total>-?\d+)\s*")


def _event(line: str, number: int) -> Event:
    match = _MOVE.fullmatch(line)
    if not match:
        raise GCGError(f"line {number} is not a GCG event: {line!r}")
    player, body = match["player"], match["body"].split()
    score, total = int(match["score"]), int(match["total"])
    if len(body) == 1 and re.fullmatch(r"\([A-Z?]+\)", body[0]):
        return Event(player, "out", score, total, tiles=body[0][1:-1])
    if body and body[-1] == "(time)" and len(body) <= 2:
        return Event(player, "time", score, total, body[0] if len(body) == 2 else "")
    rack = body[0] if body else ""
    if not re.fullmatch(r"[A-Z?]*", rack):
        raise GCGError(f"line {number}: not a rack: {rack!r}")
    rest = body[1:]
    if rest == ["-"]:
        return Event(player, "pass", score, total, rack)
    if len(rest) == 1 and re.fullmatch(r"-[A-Z?]+", rest[0]):
        return Event(player, "swap", score, total, rack, tiles=rest[0][1:])
    if len(rest) == 1 and re.fullmatch(r"\([A-Z?]+\)", rest[0]):
        return Event(player, "left", score, total, rack, tiles=rest[0][1:-1])
    if len(rest) == 2:
        parse_position(rest[0])
        if not re.fullmatch(r"[A-Za-z.]+", rest[1]):
            raise GCGError(f"line {number}: not a word: {rest[1]!r}")
        return Event(player, "play", score, total, rack, rest[0], rest[1])
    raise GCGError(f"line {number} is not a play, swap, pass or rack points: {line!r}")


def read(text: str) -> Record:
    """Read GCG text; raises ``GCGError`` naming the first line that is not GCG."""
    players: dict[int, tuple[str, str]] = {}
    events: list[Event | Note] = []
    meta = {"lexicon": "", "title": "", "id": ""}
    others = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            name, _, value = line[1:].partition(" ")
            player = re.fullmatch(r"player(\d)", name)
            if player:
                nick, _, full = value.strip().partition(" ")
                if not nick:
                    raise GCGError(f"line {number}: a player needs a nickname")
                players[int(player.group(1))] = (nick, full.strip() or nick)
            elif name == "note":
                events.append(Note(value.strip()))
            elif name in meta:
                meta[name] = value.strip()
            elif name != "character-encoding":
                others.append(line)
            continue
        if line.startswith(">"):
            event = _event(line, number)
            events.append(event)
            continue
        raise GCGError(f"line {number} is neither a pragma nor an event: {line!r}")
    if sorted(players) != list(range(1, len(players) + 1)) or len(players) < 2:
        raise GCGError("a game needs #player1, #player2 and so on")
    record = Record(
        tuple(players[n] for n in sorted(players)),
        tuple(events),
        meta["lexicon"],
        meta["title"],
        meta["id"],
        tuple(others),
    )
    unknown = {e.player for e in events if isinstance(e, Event)} - {nick for nick, _ in record.players}
    if unknown:
        raise GCGError(f"events of a player not named in #player lines: {', '.join(sorted(unknown))}")
    return record
