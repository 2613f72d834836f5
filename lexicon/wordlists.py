"""The shipped word lists and their precompiled, cached ``Lexicon`` forms (no Django).

``words(code)`` reads a base list from ``lexicon/data`` (``en`` is the union of
``en-gb`` and ``en-us``, computed here, never stored).  ``compile_lexicon(code, added,
removed, cache_dir)`` returns the ``Lexicon`` of a base list with approved changes
applied; the result is stored in ``cache_dir`` under a name derived from the source
files' bytes and the changes, so each distinct word list is built once per machine and
every later process loads it from bytes in milliseconds.
"""

from __future__ import annotations

import hashlib
import logging
import lzma
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from lexicon.core import MAGIC, Lexicon, LexiconFormatError

DATA_DIR = Path(__file__).resolve().parent / "data"
STORED_CODES = ("en-gb", "en-us", "common", "wordgame")
UNIONS = {"en": ("en-gb", "en-us")}
CODES = ("en-gb", "en-us", "en", "common", "wordgame")
#: code, name, description, accepts requests; in display order.
CATALOGUE = (
    ("en-gb", "British English", "British spellings (colour, organise), SCOWL size 70. Word Rampage and hunts.", True),
    ("en-us", "American English", "American spellings (color, organize), SCOWL size 70. Word Rampage and hunts.", True),
    ("en", "British + American", "Every word of British English and American English: a word in either counts.", False),
    ("common", "Common English", "Common words of 2 to 10 letters, both spellings, SCOWL size 50. Word Grid.", True),
    ("wordgame", "Wordgame", "The larger list, both spellings, SCOWL size 80. Wordgame's default.", True),
)
#: Lists that hold only shorter words than requests generally may add (RULES §3).
LONGEST_WORD = {"common": 10}
_WORD_LINE = re.compile(rb"[a-z]+")

log = logging.getLogger(__name__)


class WordListError(RuntimeError):
    """A shipped word list is missing or corrupt; the message names the file."""


def source_files(code: str) -> tuple[Path, ...]:
    """Return the data files a lexicon code is built from."""
    if code in UNIONS:
        return tuple(DATA_DIR / f"{part}.txt.xz" for part in UNIONS[code])
    if code in STORED_CODES:
        return (DATA_DIR / f"{code}.txt.xz",)
    raise KeyError(f"unknown lexicon code {code!r}; known: {', '.join(CODES)}")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise WordListError(f"word list {path} cannot be read: {error.strerror}") from None


def _words_of_file(path: Path) -> list[str]:
    try:
        text = lzma.decompress(_read_bytes(path))
    except lzma.LZMAError as error:
        raise WordListError(f"word list {path} is corrupt: {error}") from None
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if not _WORD_LINE.fullmatch(line):
            raise WordListError(f"word list {path} is corrupt: line {number} is {line[:40]!r}")
    if not lines:
        raise WordListError(f"word list {path} is empty")
    return [line.decode("ascii") for line in lines]


def words(code: str) -> set[str]:
    """Return the base words of a lexicon code (no approved changes)."""
    result: set[str] = set()
    for path in source_files(code):
        result.update(_words_of_file(path))
    return result


def check_files() -> None:
    """Raise WordListError, naming the file, if a shipped list is missing or corrupt.

    Decompressing verifies xz's checksum of the whole list (about 0.1 s for all).
    """
    for code in STORED_CODES:
        (path,) = source_files(code)
        try:
            text = lzma.decompress(_read_bytes(path))
        except lzma.LZMAError as error:
            raise WordListError(f"word list {path} is corrupt: {error}") from None
        if not text.endswith(b"\n") or not _WORD_LINE.fullmatch(text[: text.find(b"\n")]):
            raise WordListError(f"word list {path} is corrupt: not one a-z word a line")


def default_cache_dir() -> Path:
    """Where precompiled lexicons are kept: $LEXICON_CACHE_DIR or <repo>/var/lexicon."""
    configured = os.environ.get("LEXICON_CACHE_DIR")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parent.parent / "var" / "lexicon"


def cache_key(code: str, added: Iterable[str] = (), removed: Iterable[str] = ()) -> str:
    """Return a digest naming the exact word list: source bytes, changes, format."""
    digest = hashlib.sha256(MAGIC)
    digest.update(code.encode())
    for path in source_files(code):
        digest.update(b"\0file\0" + hashlib.sha256(_read_bytes(path)).digest())
    for word in sorted(set(added)):
        digest.update(b"\0+" + word.encode())
    for word in sorted(set(removed)):
        digest.update(b"\0-" + word.encode())
    return digest.hexdigest()[:20]


def compile_lexicon(
    code: str, added: Iterable[str] = (), removed: Iterable[str] = (), cache_dir: Path | None = None
) -> Lexicon:
    """Return the Lexicon of ``code`` plus ``added`` minus ``removed``, via the disk cache."""
    added, removed = frozenset(added), frozenset(removed)
    cache_dir = default_cache_dir() if cache_dir is None else Path(cache_dir)
    path = cache_dir / f"{code}-{cache_key(code, added, removed)}.lex"
    try:
        return Lexicon.from_bytes(path.read_bytes())
    except FileNotFoundError:
        pass
    except (OSError, LexiconFormatError) as error:
        log.warning("rebuilding precompiled lexicon %s: %s", path, error)
    lexicon = Lexicon.from_words((words(code) | added) - removed)
    write_atomically(path, lexicon.to_bytes())
    return lexicon


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file so that readers see either nothing or all of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as error:
        # A read-only checkout still works; it only rebuilds in every process.
        log.warning("cannot store precompiled lexicon %s: %s", path, error)


__all__ = [
    "CATALOGUE",
    "CODES",
    "LONGEST_WORD",
    "DATA_DIR",
    "WordListError",
    "cache_key",
    "check_files",
    "compile_lexicon",
    "default_cache_dir",
    "source_files",
    "words",
]
