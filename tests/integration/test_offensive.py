"""Offensive words: hidden from "words nobody found" and never played by bots, yet valid for people."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games.crosswords.models import Game, Move
from games.crosswords.services import bots as crossword_bots
from games.engine import crossword, hunt, movegen
from games.hunts import bot_profiles
from games.hunts import selectors as hunt_selectors
from games.hunts import services as hunt_services
from games.hunts.models import HuntRound
from games.hunts.services import bots as hunt_bots
from lexicon import offensive, wordlists

pytestmark = pytest.mark.django_db

# "shit" and "poop" run along the top rows; "cat", "rate" and others are clean words.
BOARD = hunt.Board([["s", "h", "i", "t"], ["p", "o", "o", "p"], ["c", "a", "t", "e"], ["r", "a", "t", "e"]])


def listed(word: str, html: str) -> bool:
    """``word`` is among a results page's words (a button when its path is kept, else text)."""
    return re.search(rf">{word}</(span|button)>", html) is not None


def test_the_list_holds_plain_lower_case_words_and_judges_any_case():
    """The list is the package's a–z entries; common clean words are not on it."""
    words = offensive.words()
    assert len(words) > 500 and all(w.isalpha() and w.islower() for w in words)
    assert offensive.is_offensive("shit") and offensive.is_offensive("SHIT")
    assert not any(offensive.is_offensive(w) for w in ("cat", "rate", "class", "grass", "scunthorpe"))


def _finished_round(make_user, words_by_user):
    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="classic", size=4, seat_count=2)
    hunt_services.table_join(table_id=table.pk, user=bob)
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(board=BOARD.to_text())
    game_round.refresh_from_db()
    now = game_round.starts_at + timedelta(seconds=1)
    results = {}
    for user, words in ((ann, words_by_user.get("ann", [])), (bob, words_by_user.get("bob", []))):
        for word in words:
            results[word] = hunt_services.round_submit(round_id=game_round.pk, user=user, word=word, now=now)
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline)
    game_round.refresh_from_db()
    return game_round, ann, results


def test_words_nobody_found_leave_out_offensive_words_unless_asked(make_user, client):
    """The round's stored list keeps them; the results (and page) leave them out by default."""
    game_round, ann, _ = _finished_round(make_user, {"ann": ["cat"]})
    stored = {m["word"] for m in game_round.missed_words}
    assert {"shit", "poop"} <= stored
    shown = {m["word"] for m in hunt_selectors.round_results(game_round.pk)["missed"]}
    assert not shown & offensive.words() and shown == stored - offensive.words()
    everything = {m["word"] for m in hunt_selectors.round_results(game_round.pk, show_offensive=True)["missed"]}
    assert everything == stored
    client.force_login(ann)
    html = client.get(game_round.get_absolute_url()).content.decode()
    assert listed("rate", html) and not listed("shit", html) and not listed("poop", html)


def test_a_person_who_plays_an_offensive_word_scores_it(make_user):
    """The list never makes a word invalid: found by a person, it counts and is shown as theirs."""
    game_round, ann, results = _finished_round(make_user, {"ann": ["shit", "cat"]})
    assert results["shit"].outcome == "accepted"
    breakdown = hunt_selectors.round_results(game_round.pk)
    mine = next(r for r in breakdown["results"] if r.player.user_id == ann.pk)
    assert "shit" in {f.word for f in mine.words}


def test_hunt_bots_never_plan_an_offensive_word():
    """Every strength's plan leaves out the offensive words the solver finds on the board."""
    lex = wordlists.compile_lexicon("en")
    assert {"shit", "poop"} <= set(hunt.solve(BOARD, lex, 3))
    for strength in bot_profiles.PROFILES:
        plan = hunt_bots._plan(1, BOARD.to_text(), "rampage", "en", 1, 3, "seed", strength, 7)
        assert plan and not set(plan) & offensive.words()


def test_the_lexicon_crossword_bots_think_in_forms_no_offensive_word():
    """With a rack that spells offensive words, plays in the bots' lexicon form none, main or cross."""
    lex = wordlists.compile_lexicon("wordgame")
    variant = crossword.VARIANTS["wordgrid"]
    board = crossword.Board.empty()
    full = movegen.generate(board, "shitpoo", variant, lex)
    assert any(w.lower() in offensive.words() for p in full for w, _ in p.words)
    clean = offensive.clean_lexicon(lex)
    assert offensive.clean_lexicon(lex) is clean  # built once
    plays = movegen.generate(board, "shitpoo", variant, clean)
    assert plays and not any(w.lower() in offensive.words() for p in plays for w, _ in p.words)
    assert len(clean) == len(lex) - len([w for w in offensive.words() if w in lex])


def test_a_crossword_bot_turn_thinks_in_the_clean_lexicon(make_user, monkeypatch):
    """The bot service hands the engine the lexicon without offensive words, then plays through the move service."""
    ann = make_user("ann")
    game = crossword_bots.game_create_with_bots(creator=ann, variant="wordgrid", seconds_per_move=300, bots=["casual"])
    game.refresh_from_db()
    seen = []
    real = crossword_bots.crossword_bot.choose

    def spy(position, *args, **kwargs):
        seen.append(position.lexicon)
        return real(position, *args, **kwargs)

    monkeypatch.setattr(crossword_bots.crossword_bot, "choose", spy)
    if game.to_move == 0:  # ann first: she passes, so the bot is to move
        from games.crosswords import services

        services.game_pass(game_id=game.pk, player=ann, move_count=game.move_count)
        game.refresh_from_db()
    move = crossword_bots.bot_turn(game_id=game.pk, move_count=game.move_count)
    assert move is not None and Move.objects.filter(game=game).exists()
    assert seen and not any(w in seen[0] for w in offensive.words())
    assert Game.objects.get(pk=game.pk).move_count == game.move_count + 1


def test_a_player_who_opts_in_sees_them_on_the_results_page(make_user, client):
    """The setting "Show offensive words" lists them among the words nobody found; turning it off hides them again."""
    game_round, ann, _ = _finished_round(make_user, {"ann": ["cat"]})
    client.force_login(ann)
    settings_page = client.get("/settings/").content.decode()
    assert "Show offensive words" in settings_page
    form = {
        "display_name": "",
        "email": ann.email,
        "preferred_lexicon": "en",
        "email_notifications": "",
        "chat": "on",
        "offensive_words": "on",
    }
    assert client.post("/settings/", form).status_code == 302
    assert listed("shit", client.get(game_round.get_absolute_url()).content.decode())
    del form["offensive_words"]
    assert client.post("/settings/", form).status_code == 302
    assert not listed("shit", client.get(game_round.get_absolute_url()).content.decode())
