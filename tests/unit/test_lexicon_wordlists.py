"""The shipped word lists: normalisation, sanity words, the en union and the disk cache."""

import lzma
import os

import pytest

from lexicon import wordlists
from lexicon.data.build_wordlists import normalise


@pytest.mark.parametrize(
    "entry, expected",
    [
        ("cat", "cat"),
        ("café", "cafe"),
        ("naïve", "naive"),
        ("Paris", None),  # capitalised: a name
        ("NATO", None),  # all capitals: an abbreviation
        ("iPod", None),  # any capital at all
        ("cat's", None),  # possessive
        ("don't", None),  # contraction
        ("mother-in-law", None),  # hyphen
        ("ice cream", None),  # space
        ("mp3", None),  # digit
        ("cs", None),  # letter plural, no vowel
        ("kb", None),  # unit symbol, no vowel
        ("hmm", "hmm"),  # a real word without a vowel
        ("rhythm", "rhythm"),  # y counts as a vowel
        ("", None),
    ],
)
def test_normalise(entry, expected):
    """SCOWL entries become lower-case a-z words or are dropped."""
    assert normalise(entry) == expected


@pytest.fixture(scope="module")
def lists():
    return {code: wordlists.words(code) for code in wordlists.CODES}


def test_everyday_words_are_in_every_lexicon(lists):
    """cat, quiz and jumped are in all five lexicons."""
    for code, words in lists.items():
        assert {"cat", "quiz", "jumped"} <= words, code


def test_spelling_variants(lists):
    """colour is British only, color American only, both are in en."""
    assert "colour" in lists["en-gb"] and "colour" not in lists["en-us"]
    assert "color" in lists["en-us"] and "color" not in lists["en-gb"]
    assert {"colour", "color"} <= lists["en"]


@pytest.mark.parametrize("code", wordlists.CODES)
def test_precompiled_lexicon_holds_exactly_the_list(lists, code):
    """The Lexicon processes load (from the precompiled form) spells exactly the list's words."""
    lexicon = wordlists.compile_lexicon(code)
    assert len(lexicon) == len(lists[code])
    assert list(lexicon) == sorted(lists[code])
    assert "cat" in lexicon and "ca" not in lexicon and lexicon.has_prefix("ca")


def test_en_is_the_union(lists):
    """en holds exactly the words of en-gb and en-us."""
    assert lists["en"] == lists["en-gb"] | lists["en-us"]


def test_names_and_abbreviations_are_out(lists):
    """Proper names, abbreviations and contractions are in no lexicon."""
    for code, words in lists.items():
        assert (
            not {"london", "david", "england", "tuesday", "nato", "nasa", "etc", "mr", "mrs", "tv", "dont", "cs"}
            & words
        ), code


def test_common_has_only_2_to_10_letters(lists):
    """common is limited to words of 2 to 10 letters."""
    assert {len(w) for w in lists["common"]} == set(range(2, 11))


def test_every_word_is_lower_case_a_to_z(lists):
    """Every stored word is at least 2 letters of a-z."""
    for words in lists.values():
        assert all(w.isascii() and w.isalpha() and w.islower() and len(w) >= 2 for w in words)


def test_wordgame_is_the_largest(lists):
    """wordgame is larger than every other list and holds en."""
    assert len(lists["wordgame"]) > max(len(lists[c]) for c in ("en", "common"))
    assert len(lists["wordgame"] & lists["en"]) > 0.95 * len(lists["en"])


def test_unknown_code_is_refused():
    """An unknown lexicon code raises KeyError naming it."""
    with pytest.raises(KeyError, match="klingon"):
        wordlists.words("klingon")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(wordlists, "DATA_DIR", tmp_path)
    (tmp_path / "en-us.txt.xz").write_bytes(lzma.compress(b"cat\ncats\n"))
    return tmp_path


def test_missing_file_is_named(data_dir):
    """A missing data file fails loudly with the file named."""
    with pytest.raises(wordlists.WordListError, match="en-gb.txt.xz"):
        wordlists.compile_lexicon("en", cache_dir=data_dir / "cache")


def test_corrupt_file_is_named(data_dir):
    """A data file that is not xz fails loudly with the file named."""
    (data_dir / "en-gb.txt.xz").write_bytes(b"not xz at all")
    with pytest.raises(wordlists.WordListError, match="en-gb.txt.xz.*corrupt"):
        wordlists.words("en")


def test_bad_line_is_named(data_dir):
    """A data file with a line that is not a-z fails with file and line number."""
    (data_dir / "en-gb.txt.xz").write_bytes(lzma.compress(b"cat\nDog\n"))
    with pytest.raises(wordlists.WordListError, match="en-gb.txt.xz.*line 2"):
        wordlists.words("en-gb")


def test_cache_builds_once_and_applies_changes(data_dir):
    """The precompiled form is stored, reused, and keyed by the changes."""
    (data_dir / "en-gb.txt.xz").write_bytes(lzma.compress(b"dog\n"))
    cache = data_dir / "cache"
    base = wordlists.compile_lexicon("en", cache_dir=cache)
    assert list(base) == ["cat", "cats", "dog"]
    assert len(list(cache.glob("en-*.lex"))) == 1
    again = wordlists.compile_lexicon("en", cache_dir=cache)
    assert list(again) == list(base)
    changed = wordlists.compile_lexicon("en", added={"zebra"}, removed={"cats"}, cache_dir=cache)
    assert list(changed) == ["cat", "dog", "zebra"]
    assert len(list(cache.glob("en-*.lex"))) == 2


def test_corrupt_cache_is_rebuilt(data_dir):
    """A damaged precompiled file is rebuilt from the word list, not trusted."""
    cache = data_dir / "cache"
    wordlists.compile_lexicon("en-us", cache_dir=cache)
    (stored,) = cache.glob("en-us-*.lex")
    stored.write_bytes(stored.read_bytes()[:-3])
    assert list(wordlists.compile_lexicon("en-us", cache_dir=cache)) == ["cat", "cats"]
    assert list(wordlists.compile_lexicon("en-us", cache_dir=cache)) == ["cat", "cats"]


def test_changed_source_changes_the_key(data_dir):
    """Editing a data file gives a new cache name, so a stale build is never served."""
    before = wordlists.cache_key("en-us")
    (data_dir / "en-us.txt.xz").write_bytes(lzma.compress(b"cat\n"))
    assert wordlists.cache_key("en-us") != before


def test_start_up_check_names_a_missing_file(data_dir):
    """The start-up check refuses a missing list and names it."""
    with pytest.raises(wordlists.WordListError, match="en-gb.txt.xz"):
        wordlists.check_files()


def test_start_up_check_names_a_truncated_file(data_dir):
    """The start-up check catches a file cut short (xz's checksum), naming it."""
    for code in wordlists.STORED_CODES:
        (data_dir / f"{code}.txt.xz").write_bytes(lzma.compress(b"cat\n"))
    wordlists.check_files()
    good = (data_dir / "common.txt.xz").read_bytes()
    (data_dir / "common.txt.xz").write_bytes(good[:-8])
    with pytest.raises(wordlists.WordListError, match="common.txt.xz"):
        wordlists.check_files()


def test_shipped_files_pass_the_start_up_check():
    """The committed lists are whole."""
    wordlists.check_files()


def test_the_offensive_word_list_ships_in_the_repository_as_its_provenance_says():
    """lexicon/data/offensive.txt.xz is better-profanity 0.7.0's list unchanged (the hash in
    lexicon/data/README), read with no package installed; its 817 a–z entries are kept."""
    import hashlib
    import subprocess
    import sys

    from lexicon import offensive

    text = lzma.decompress(offensive.LIST.read_bytes())
    readme = (offensive.LIST.parent / "README").read_text()
    assert hashlib.sha256(text).hexdigest() in readme.replace("\n", "")
    assert (offensive.LIST.parent / "LICENSE-better-profanity.txt").read_text().startswith("Copyright")
    blocked = (
        "import sys, django; sys.modules['better_profanity'] = None; django.setup(); "
        "from lexicon import offensive; print(len(offensive.words()))"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked],
        cwd=offensive.LIST.parent.parent.parent,
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert result.returncode == 0 and result.stdout.split() == ["817"], result.stderr
