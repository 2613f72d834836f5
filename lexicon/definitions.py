"""What a word means: its senses in WordNet 3.0, shipped as ``data/definitions.tsv.xz``.

    from lexicon.definitions import define
    entry = define("geese")      # Entry(word="geese", headword="goose", senses=[...]) or None

A word the file does not list is looked up by its base form the way WordNet's own
``morphy`` finds one: first its exception lists ("geese" → "goose"), then its
detachment rules ("cats" → "cat", "running" → "run"), the first base form with senses
winning. The shipped file is compiled once into an SQLite file beside the compiled
lexicons (shared by the processes of a machine, rebuilt when the shipped file changes),
so a lookup reads a few rows instead of holding the dictionary in memory; answers are
kept per process.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import sqlite3
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "data" / "definitions.tsv.xz"
PARTS_OF_SPEECH = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}
# WordNet's detachment rules (morphy): an ending and what replaces it, per part of speech.
_DETACHMENTS = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
_LONGEST_WORD = 40


@dataclass(frozen=True)
class Sense:
    part_of_speech: str  # "noun", "verb", "adjective" or "adverb"
    text: str


@dataclass(frozen=True)
class Entry:
    word: str  # as asked
    headword: str  # the form WordNet lists: the word itself or its base form
    senses: tuple[Sense, ...]


_local = threading.local()
_compile_lock = threading.Lock()


def _compiled_path() -> Path:
    from lexicon.loading import cache_dir  # it loads the models; this module loads without them (unit tests)

    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    return cache_dir() / f"definitions-{digest}.sqlite3"


def _compile(target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    partial.unlink(missing_ok=True)
    db = sqlite3.connect(partial)
    try:
        db.execute("CREATE TABLE sense (word TEXT NOT NULL, n INTEGER NOT NULL, pos TEXT NOT NULL, text TEXT NOT NULL)")
        with lzma.open(SOURCE, "rt", encoding="utf-8") as source:
            rows = (
                (word, n, pos, text)
                for n, (word, pos, text) in enumerate(line.rstrip("\n").split("\t") for line in source)
            )
            db.executemany("INSERT INTO sense VALUES (?, ?, ?, ?)", rows)
        db.execute("CREATE INDEX sense_word ON sense (word, n)")
        db.commit()
    finally:
        db.close()
    os.replace(partial, target)  # whole or not at all: another process may be reading


def _connection() -> sqlite3.Connection:
    db = getattr(_local, "db", None)
    if db is None:
        path = _compiled_path()
        if not path.exists():
            with _compile_lock:
                if not path.exists():
                    _compile(path)
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        _local.db = db
    return db


def _rows(word: str) -> list[tuple[str, str]]:
    return _connection().execute("SELECT pos, text FROM sense WHERE word = ? ORDER BY n", (word,)).fetchall()


def _base_forms(word: str, rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(part of speech, base form) of an inflected ``word``, in the order morphy tries them."""
    # An irregular form's listed base ("was" = "be") comes before any ending's ("wa").
    forms = [(kind[1:], text) for kind, text in rows if kind.startswith("=")]
    for pos, rules in _DETACHMENTS.items():
        forms += [
            (pos, word[: -len(ending)] + replacement)
            for ending, replacement in rules
            if word.endswith(ending) and len(word) > len(ending)
        ]
    return list(dict.fromkeys(form for form in forms if form[1] != word))


@lru_cache(maxsize=4096)
def define(word: str) -> Entry | None:
    """The senses of ``word`` (lower case a-z), or None where WordNet has none."""
    if not word.isascii() or not word.isalpha() or not word.islower() or len(word) > _LONGEST_WORD:
        return None
    rows = _rows(word)
    senses = [Sense(PARTS_OF_SPEECH[pos], text) for pos, text in rows if pos in PARTS_OF_SPEECH]
    if senses:
        return Entry(word=word, headword=word, senses=tuple(senses))
    headword, parts = None, set()
    for pos, base in _base_forms(word, rows):
        if headword in (None, base) and any(kind == pos for kind, _ in _rows(base)):
            headword = base
            parts.add(pos)
    if headword is None:
        return None
    found = [Sense(PARTS_OF_SPEECH[pos], text) for pos, text in _rows(headword) if pos in parts]
    return Entry(word=word, headword=headword, senses=tuple(found))
