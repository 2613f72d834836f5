"""Loading a lexicon version: the words a game plays by, the same for its whole length.

    from lexicon.loading import current_version, get_lexicon
    version = current_version("en")          # store it on the game when it starts
    lex = get_lexicon("en", version)         # the same words for the whole game
    lex = get_lexicon("wordgame")            # the current version

``get_lexicon`` keeps loaded lexicons in a small per-process cache keyed by (code,
version); ``current_version`` reads the database, so after an approval every process
(web or worker) serves the new version at its next call, without a restart. Nothing
here writes a row: a version is compiled from the shipped list and its changes.

A version number is never reused, so the cache is never stale, unless the database is
emptied or restored under running processes (the test suite's flushes do that): restart
them then. The worker's precompile task always reloads the version it is given.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from django.conf import settings

from lexicon import core, wordlists
from lexicon.models import Action, Lexicon, WordChange

_CACHE_SIZE = 12

_loaded: OrderedDict[tuple[str, int], core.Lexicon] = OrderedDict()
_load_lock = threading.Lock()


def cache_dir() -> Path:
    """Where precompiled lexicons are stored (shared by the processes of one machine)."""
    return Path(getattr(settings, "VAR_DIR", settings.BASE_DIR / "var")) / "lexicon"


def current_version(code: str) -> int:
    """Return the current version of a lexicon (1 until a change is approved)."""
    try:
        return Lexicon.objects.values_list("current_version", flat=True).get(code=code)
    except Lexicon.DoesNotExist:
        if code in wordlists.CODES:
            return 1  # rows not created yet: the shipped list
        raise KeyError(f"unknown lexicon code {code!r}") from None


def changes_up_to(code: str, version: int) -> tuple[frozenset[str], frozenset[str]]:
    """Return (added, removed) relative to the shipped list, at ``version``."""
    added: set[str] = set()
    removed: set[str] = set()
    rows = (
        WordChange.objects.filter(lexicon__code=code, version__lte=version)
        .order_by("version")
        .values_list("word", "action")
    )
    for word, action in rows:
        if action == Action.ADD:
            added.add(word)
            removed.discard(word)
        else:
            removed.add(word)
            added.discard(word)
    return frozenset(added), frozenset(removed)


def get_lexicon(code: str, version: int | None = None) -> core.Lexicon:
    """Return the Lexicon of ``code`` at ``version`` (default: the current version)."""
    if code not in wordlists.CODES:
        raise KeyError(f"unknown lexicon code {code!r}; known: {', '.join(wordlists.CODES)}")
    if version is None:
        version = current_version(code)
    lexicon = loaded_lexicon(code, version)
    if lexicon is not None:
        return lexicon
    if version < 1 or version > current_version(code):
        raise ValueError(f"lexicon {code} has no version {version}")
    key = (code, version)
    with _load_lock:
        lexicon = _loaded.get(key)
        if lexicon is None:
            added, removed = changes_up_to(code, version)
            lexicon = wordlists.compile_lexicon(code, added, removed, cache_dir())
            _loaded[key] = lexicon
            while len(_loaded) > _CACHE_SIZE:
                _loaded.popitem(last=False)
    return lexicon


def loaded_lexicon(code: str, version: int) -> core.Lexicon | None:
    """``code`` at ``version`` if this process holds it already, else None; never asks the database."""
    return _loaded.get((code, version))


def forget_loaded(code: str | None = None, version: int | None = None) -> None:
    """Forget this process's loaded lexicons: all of them, or one (code, version)."""
    with _load_lock:
        if code is None:
            _loaded.clear()
        else:
            _loaded.pop((code, version), None)
