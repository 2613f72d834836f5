"""Definitions from the shipped WordNet file, found by a word's base form as morphy finds it."""

from __future__ import annotations

from lexicon.definitions import define


def test_a_listed_word_has_its_senses_in_wordnet_order():
    entry = define("stone")
    assert entry.headword == "stone"
    assert entry.senses[0].part_of_speech == "noun"
    assert entry.senses[0].text == "a lump or mass of hard consolidated mineral matter"


def test_an_irregular_form_is_defined_by_its_base_in_its_part_of_speech():
    entry = define("was")
    assert entry.headword == "be"
    assert {sense.part_of_speech for sense in entry.senses} == {"verb"}


def test_a_regular_inflection_is_defined_by_its_base():
    assert define("boxes").headword == "box"
    assert define("tries").headword == "try"


def test_a_word_wordnet_lacks_or_a_bad_word_has_no_entry():
    assert define("xyzzyq") is None
    assert define("Cat") is None
    assert define("ca t") is None
