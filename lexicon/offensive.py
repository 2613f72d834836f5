"""Offensive words: the list that hides them from what the site shows and from bots.

The list is better-profanity's word list, shipped in ``lexicon/data/offensive.txt.xz`` (MIT
licence; provenance in lexicon/data/README), of which the plain a–z entries are kept. A person who plays an
offensive word still scores it: the list only decides what the site volunteers ("words
nobody found", suggestions) and what its bots play.
"""

from __future__ import annotations

import hashlib
import lzma
import threading
from functools import lru_cache
from pathlib import Path
from weakref import WeakKeyDictionary

from . import wordlists
from .core import Lexicon, LexiconFormatError
from .loading import cache_dir

LIST = Path(__file__).resolve().parent / "data" / "offensive.txt.xz"
_clean: WeakKeyDictionary[Lexicon, Lexicon] = WeakKeyDictionary()
_lock = threading.Lock()


@lru_cache(maxsize=1)
def words() -> frozenset[str]:
    """Every offensive word on the list, lower case a–z, two letters or more."""
    text = lzma.decompress(LIST.read_bytes()).decode("utf-8")
    entries = (line.strip().lower() for line in text.splitlines())
    return frozenset(w for w in entries if len(w) >= 2 and w.isascii() and w.isalpha())


def is_offensive(word: str) -> bool:
    return word.lower() in words()


def without_offensive(items, key=lambda item: item):
    """``items`` less those whose word (``key(item)``) is offensive, in their order."""
    hidden = words()
    return [item for item in items if key(item).lower() not in hidden]


def clean_lexicon(lexicon: Lexicon) -> Lexicon:
    """``lexicon`` without the offensive words: what every bot searches (hunt, crossword
    and TOW bots alike), so no bot finds one to play.

    Built once a machine: compiled beside the other lexicons (``loading.cache_dir``)
    under a name made from the lexicon's bytes and the list's, so another
    process loads it in a fraction of a second instead of building it again; kept in
    this process for as long as ``lexicon`` is.
    """
    with _lock:
        clean = _clean.get(lexicon)
        if clean is None:
            clean = _compiled_clean(lexicon)
            _clean[lexicon] = clean
        return clean


def forget_clean() -> None:
    """Forget this process's clean lexicons (the compiled files stay)."""
    with _lock:
        _clean.clear()


def _compiled_clean(lexicon: Lexicon) -> Lexicon:
    hidden = words()
    if not any(word in lexicon for word in hidden):
        return lexicon
    digest = hashlib.blake2b(lexicon.to_bytes(), digest_size=10)
    digest.update(LIST.read_bytes())
    path = cache_dir() / f"clean-{digest.hexdigest()}.lex"
    try:
        return Lexicon.from_bytes(path.read_bytes())
    except (OSError, LexiconFormatError):
        pass  # not built on this machine yet, or unreadable: built (again) here
    clean = Lexicon.from_words(word for word in lexicon if word not in hidden)
    wordlists.write_atomically(path, clean.to_bytes())
    return clean
