"""GCG records of crossword games: written from a game's seed and moves, read back, and
replayed to the same scores."""

from __future__ import annotations

import pytest

from games.engine import crossword, crossword_game, gcg, movegen
from games.engine.crossword import WORD_GRID, WORDGAME
from lexicon.core import Lexicon


@pytest.fixture(scope="module")
def lexicons():
    from lexicon import wordlists

    return {WORD_GRID: wordlists.compile_lexicon("common"), WORDGAME: wordlists.compile_lexicon("wordgame")}


def played(variant, lexicon, players: int, seed: str, *, swap_at: int = 3):
    """A whole game of best-scoring plays (a swap at move ``swap_at``, a pass when there is
    no play), as its moves and the finished engine state."""
    game = crossword_game.new_game(variant, players, seed, lexicon)
    moves = []
    while not game.is_over:
        seat, rack = game.to_move, game.racks[game.to_move]
        best = movegen.best(game.board, rack, variant, lexicon)
        if len(moves) == swap_at and len(game.bag) >= 2:
            move = crossword_game.Move.swap(seat, rack[:2])
        elif best is None:
            move = crossword_game.Move.pass_(seat)
        else:
            move = crossword_game.Move.place(seat, best.placement)
        game = game.apply(move)
        moves.append(move)
    return moves, game


def replayed_totals(record: gcg.Record) -> dict[str, int]:
    """Each player's total from the record's events alone, checking every play's score
    against the engine on a board built from the record's own plays."""
    board = crossword.Board.empty()
    totals = {nick: 0 for nick, _ in record.players}
    for event in record.events:
        if not isinstance(event, gcg.Event):
            continue
        if event.kind == "play":
            tiles = gcg.placement(board, event.position, event.word)
            score = crossword.evaluate(board, tiles, WORD_GRID, ALL_WORDS).score
            assert score == event.score, event
            board = board.with_tiles(tiles)
        totals[event.player] += event.score
        assert totals[event.player] == event.total, event
    return totals


class _AllWords:
    """Every word is in it: the replay checks scores, the game already judged the words."""

    def __contains__(self, word):
        return True


ALL_WORDS = _AllWords()


@pytest.mark.parametrize("players, seed", [(2, "gcg-1"), (3, "gcg-2"), (4, "gcg-3")])
def test_a_word_grid_game_is_written_read_back_and_replayed_to_its_scores(lexicons, players, seed):
    """Every play, swap, pass and the end's rack points are lines whose totals are the game's
    scores; read back, the record is the same, and its plays replay to the same points."""
    moves, game = played(WORD_GRID, lexicons[WORD_GRID], players, seed)
    names = [(f"p{n}", f"Player {n}") for n in range(1, players + 1)]
    record = gcg.record_of(WORD_GRID, seed, moves, lexicons[WORD_GRID], players=names, lexicon_name="common")
    text = gcg.write(record)
    assert text.startswith("#character-encoding UTF-8\n#player1 p1 Player 1\n")
    assert gcg.read(text) == record
    assert list(record.totals().values()) == list(game.scores)
    assert replayed_totals(gcg.read(text)) == record.totals()
    kinds = {event.kind for event in record.events if isinstance(event, gcg.Event)}
    assert {"play", "swap"} <= kinds and kinds & {"out", "left"}


def test_a_wordgame_game_with_its_doubled_main_words_replays_to_its_scores(lexicons):
    """Wordgame's eight-tile racks and scoring: the record's totals are the game's scores."""
    moves, game = played(WORDGAME, lexicons[WORDGAME], 2, "gcg-wordgame")
    record = gcg.record_of(WORDGAME, "gcg-wordgame", moves, lexicons[WORDGAME], players=[("a", "A"), ("b", "B")])
    assert list(gcg.read(gcg.write(record)).totals().values()) == list(game.scores)
    racks = [event.rack for event in record.events if isinstance(event, gcg.Event) and event.kind == "play"]
    assert len(racks[0]) == 8


def test_a_clocked_games_overtime_penalty_is_a_time_line_after_the_racks(lexicons):
    """Points lost for going over the time come last, as "(time)" lines: the record's totals
    are the penalised scores, and read back it is the same record."""
    moves, game = played(WORD_GRID, lexicons[WORD_GRID], 2, "gcg-1")
    penalties = (20, 0)
    record = gcg.record_of(
        WORD_GRID, "gcg-1", moves, lexicons[WORD_GRID], players=[("a", "A"), ("b", "B")], time_penalties=penalties
    )
    text = gcg.write(record)
    last = text.splitlines()[-1]
    assert last.startswith(">a: ") and " (time) -20 " in last + " "
    assert gcg.read(text) == record
    assert list(record.totals().values()) == list(game.with_time_penalties(penalties).scores)
    assert replayed_totals(gcg.read(text)) == record.totals()
    assert gcg.read("#player1 a A\n#player2 b B\n>a: (time) -10 -10\n").events[0].kind == "time"


def test_positions_name_row_then_column_across_and_column_then_row_down():
    assert gcg.position(7, 3, across=True) == "8D"
    assert gcg.position(7, 3, across=False) == "D8"
    assert gcg.parse_position("8D") == (7, 3, True)
    assert gcg.parse_position("d8") == (7, 3, False)
    assert gcg.parse_position("15O") == (14, 14, True)
    for bad in ("16A", "P1", "8", "H", "8-D"):
        with pytest.raises(gcg.GCGError):
            gcg.parse_position(bad)


def test_a_played_through_tile_is_a_dot_and_a_blank_is_lower_case():
    """CAT across from G8, then S on J8 and a blank O... down: ".S" style lines."""
    lex = Lexicon.from_words(["cat", "cats", "so"])
    game = crossword_game.new_game(WORD_GRID, 2, "x", lex)
    board = game.board.with_tiles([(7, 6, "c", False), (7, 7, "a", False), (7, 8, "t", False)])
    after = board.with_tiles([(7, 9, "s", True)])
    assert gcg.play_line(after, [(7, 9, "s", True)], across=True) == ("8G", "...s")
    assert gcg.placement(board, "8G", "...s") == ((7, 9, "s", True),)
    assert gcg.placement(board, "8G", "CATs") == ((7, 9, "s", True),)
    with pytest.raises(gcg.GCGError, match="plays through an empty square"):
        gcg.placement(board, "9G", ".A")


@pytest.mark.parametrize(
    "text, reason",
    [
        ("#player1 a A\n>a: ABC 8H CAB +8 8\n", "#player1, #player2"),
        ("#player1 a A\n#player2 b B\n>c: ABC 8H CAB +8 8\n", "not named"),
        ("#player1 a A\n#player2 b B\n>a: ABC 8H CAB 8 8\n", "line 3 is not a GCG event"),
        ("#player1 a A\n#player2 b B\n>a: abc 8H CAB +8 8\n", "line 3: not a rack"),
        ("#player1 a A\n#player2 b B\n>a: ABC Z9 CAB +8 8\n", "off the board"),
        ("#player1 a A\n#player2 b B\nCAB\n", "line 3 is neither"),
    ],
)
def test_text_that_is_not_gcg_is_refused_with_the_line(text, reason):
    with pytest.raises(gcg.GCGError, match=reason):
        gcg.read(text)
