"""Offensive words: the list that hides them from what the site shows and from bots.

The list is better-profanity's word list (MIT licence; provenance in lexicon/data/README),
read from the installed package, keeping its plain a–z entries. A person who plays an
offensive word still scores it: the list only decides what the site volunteers ("words
nobody found", suggestions) and what its bots play.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from importlib import resources
from weakref import WeakKeyDictionary

from .core import Lexicon

_clean: WeakKeyDictionary[Lexicon, Lexicon] = WeakKeyDictionary()
_lock = threading.Lock()


@lru_cache(maxsize=1)
def words() -> frozenset[str]:
    """Every offensive word on the list, lower case a–z, two letters or more."""
    text = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text("utf-8")
    entries = (line.strip().lower() for line in text.splitlines())
    return frozenset(w for w in entries if len(w) >= 2 and w.isascii() and w.isalpha())


def is_offensive(word: str) -> bool:
    return word.lower() in words()


def without_offensive(items, key=lambda item: item):
    """``items`` less those whose word (``key(item)``) is offensive, in their order."""
    hidden = words()
    return [item for item in items if key(item).lower() not in hidden]


def clean_lexicon(lexicon: Lexicon) -> Lexicon:
    """``lexicon`` without the offensive words, built once per lexicon (for bots)."""
    with _lock:
        clean = _clean.get(lexicon)
        if clean is None:
            hidden = words()
            if not any(w in lexicon for w in hidden):
                clean = lexicon
            else:
                clean = Lexicon.from_words(w for w in lexicon if w not in hidden)
            _clean[lexicon] = clean
        return clean
