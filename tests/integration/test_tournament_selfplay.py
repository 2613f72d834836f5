"""``manage.py tournament_selfplay``: a dry run of an event, one JSON line."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args) -> dict:
    out = StringIO()
    call_command("tournament_selfplay", *args, stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_a_swiss_dry_run_prints_its_standings():
    """A three-player Swiss of two rounds: two games, one bye a round, no rematch."""
    report = run("--format", "swiss", "--game", "wordgame", "--players", "3", "--rounds", "2", "--seed", "7")
    assert (report["format"], report["players"], report["rounds"]) == ("swiss", 3, 2)
    assert report["byes"] == 2 and report["rematches"] == 0
    assert len(report["standings"]) == 3
    assert sum(line["points"] for line in report["standings"]) == 4  # two games and two byes
    assert set(report["standings"][0]["tiebreaks"]) == {"spread", "buchholz", "sonneborn_berger"}


def test_a_small_swiss_dry_run_without_rounds_plays_one_fewer_than_its_players():
    """Left out, the rounds are log2 + 1, but never as many as the players."""
    assert run("--format", "swiss", "--game", "wordgrid", "--players", "2")["rounds"] == 1
    assert run("--format", "swiss", "--game", "wordgrid", "--players", "4")["rounds"] == 3


def test_an_arena_dry_run_repeats_with_its_seed():
    """An arena of six bots for five minutes: tables are played, and the same seed gives
    the same standings."""
    first = run("--format", "arena", "--game", "rampage", "--players", "6", "--minutes", "5", "--seed", "3")
    again = run("--format", "arena", "--game", "rampage", "--players", "6", "--minutes", "5", "--seed", "3")
    assert first == again
    assert first["rounds"] >= 2 and first["standings"][0]["points"] >= first["standings"][-1]["points"]


def test_a_game_that_does_not_fit_the_format_is_refused():
    """An arena of a crossword game is refused with the reason."""
    with pytest.raises(CommandError, match="live hunts"):
        run("--format", "arena", "--game", "wordgrid", "--players", "4")
