"""Bots never play an offensive word: every bot searches one clean lexicon
(``offensive.clean_lexicon``), and the TOW bot passes over a play whose backward reading
would be one."""

from __future__ import annotations

import pytest

from games.engine import hunt as engine_hunt
from games.engine import tow as engine
from games.hunts.services import bots as hunt_bots
from games.tow.services.bots import choose_play
from lexicon import offensive
from lexicon.core import Lexicon
from lexicon.services import get_lexicon


def _words(play, lexicon) -> list[str]:
    """Every word the game scores for ``play`` on an empty table, as it judges it."""
    scored = engine.evaluate(engine.Table.empty(), play.placement, play.path, lexicon)
    return [word for word, _ in scored.words]


def test_the_tow_bot_does_not_open_with_an_offensive_word():
    """With FUCKER the best opening its rack holds, the bot plays another word."""
    lexicon = Lexicon.from_words(["fucker", "fuck", "cure", "race", "acre", "car"])
    assert engine.best_play(engine.Table.empty(), "fuckera", lexicon).placement  # the best is offensive
    assert offensive.is_offensive(engine.best_play(engine.Table.empty(), "fuckera", lexicon).words[0][0])
    play = choose_play(engine.Table.empty(), "fuckera", lexicon)
    assert play is not None
    assert not any(offensive.is_offensive(word) for word in _words(play, lexicon))


def test_the_tow_bot_passes_over_a_word_whose_backward_reading_is_offensive():
    """KCUF, straight through the KCU on the table, reads FUCK backwards, which the game
    would score and show: the bot swaps instead."""
    table = engine.Table.empty().with_tiles([(0, col, letter, "letter", 0) for col, letter in enumerate("kcu")])
    lexicon = Lexicon.from_words(["kcu", "kcuf", "fuck"])
    assert choose_play(table, "fzzzzzz", lexicon) is None
    play = choose_play(table, "fzzzzzz", Lexicon.from_words(["kcu", "kcuf"]))
    assert play is not None and play.words[0][0] == "kcuf"  # no backward word, nothing offensive


BOARD = engine_hunt.Board([["s", "h", "i", "t"], ["p", "o", "o", "p"], ["c", "a", "t", "e"], ["r", "a", "t", "e"]])


@pytest.mark.django_db
def test_the_hunt_bots_search_the_same_clean_lexicon(monkeypatch):
    """A hunt bot's plan is solved over offensive.clean_lexicon, the crossword and TOW
    bots' lexicon, not filtered afterwards."""
    searched = []
    solve = engine_hunt.solve

    def spy(board, lexicon, min_length):
        searched.append(lexicon)
        return solve(board, lexicon, min_length)

    monkeypatch.setattr(hunt_bots.hunt, "solve", spy)
    plan = hunt_bots._plan.__wrapped__(1, BOARD.to_text(), "rampage", "en", 1, 3, "seed", "hard", 7)
    assert plan and not set(plan) & offensive.words()
    assert searched == [offensive.clean_lexicon(get_lexicon("en", 1))]


def test_a_clean_lexicon_is_built_once_a_machine(tmp_path, monkeypatch, settings):
    """Another process finds the clean lexicon compiled beside the others and loads it."""
    settings.VAR_DIR = tmp_path
    lexicon = Lexicon.from_words(["fuck", "duck", "luck", "shit", "shin"])
    clean = offensive.clean_lexicon(lexicon)
    assert set(clean) == {"duck", "luck", "shin"}
    (stored,) = (tmp_path / "lexicon").glob("clean-*.lex")
    offensive.forget_clean()  # as in a new process
    monkeypatch.setattr(Lexicon, "from_words", None)  # building again would fail
    again = offensive.clean_lexicon(lexicon)
    assert again is not clean and set(again) == {"duck", "luck", "shin"}
    assert stored.exists()
