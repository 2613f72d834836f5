"""How common an English word is, from the ``wordfreq`` package (Zipf scale).

The Zipf value is log10 of a word's frequency per billion words: "the" is about 7.7,
"cat" 4.8, "aardvark" 2.4, a word wordfreq never saw 0.  ``band`` names the range.

wordfreq keeps its whole English list in memory once asked about one word: 41 MB in
every process that asks (each daphne, each worker). Here the values are asked once per
machine, in a process of its own, and kept in a SQLite table beside the compiled lexicons
(``var/lexicon/zipf-en-<wordfreq version>.sqlite3``, a few MB); processes read it through
the page cache, which they share, and a lookup is one indexed read. The table holds the
words of a to z only, as every lexicon does, with the value ``wordfreq.zipf_frequency``
gives each, so the answers are wordfreq's own.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import subprocess
import sys
import threading
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

#: (lowest Zipf value, band name), most common first.
BANDS = (
    (5.0, "very common"),
    (4.0, "common"),
    (3.0, "uncommon"),
    (1.5, "rare"),
    (0.01, "very rare"),
)
UNSEEN = "not seen"

_WORD = re.compile(r"[a-z]+")
_local = threading.local()
_build_lock = threading.Lock()


def table_path() -> Path:
    """The machine's table of Zipf values for this wordfreq release."""
    from lexicon.loading import cache_dir  # this module loads without Django, in a child process too

    return cache_dir() / f"zipf-en-{version('wordfreq')}.sqlite3"


def ensure_table() -> Path:
    """Build the table if this machine has none yet, in a process of its own; its path."""
    path = table_path()
    with _build_lock:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                [sys.executable, "-m", "lexicon.frequency", str(path)],
                cwd=Path(__file__).resolve().parent.parent,
                check=True,
                timeout=600,
            )
    return path


def _connection() -> sqlite3.Connection:
    # One read-only connection per thread; the file never changes once in place.
    connection = getattr(_local, "connection", None)
    if connection is None:
        path = ensure_table()
        connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        _local.connection = connection
    return connection


@lru_cache(maxsize=4096)
def zipf(word: str) -> float:
    """Return the Zipf frequency of the a-z word ``word`` in English (0.0 if never seen)."""
    word = word.lower()
    if not _WORD.fullmatch(word):
        return 0.0  # no lexicon holds it
    row = _connection().execute("SELECT zipf FROM zipf WHERE word = ?", (word,)).fetchone()
    return row[0] if row else 0.0


def band_of(value: float) -> str:
    """Return the band name of a Zipf value."""
    for lowest, name in BANDS:
        if value >= lowest:
            return name
    return UNSEEN


def band(word: str) -> str:
    """Return the frequency band of ``word``: "very common" ... "very rare", "not seen"."""
    return band_of(zipf(word))


def build(path: Path) -> None:
    """Write the table: every a-z word wordfreq knows in English, with its Zipf value.

    ``zipf_frequency`` tokenizes what it is asked, 0.1 ms a word, a minute for the list;
    an a-z word is its own single token, so its value is its list frequency rounded as
    wordfreq rounds (three significant digits, then hundredths of a Zipf unit). Every
    hundredth word is checked against ``zipf_frequency`` itself before the table is used.
    """
    from wordfreq import freq_to_zipf, get_frequency_dict, zipf_frequency

    def rounded(frequency: float) -> float:
        significant = round(frequency, math.floor(-math.log10(frequency)) + 3)
        return round(freq_to_zipf(significant), 2)

    values = {word: rounded(f) for word, f in get_frequency_dict("en").items() if f > 0 and _WORD.fullmatch(word)}
    for word in sorted(values)[::100]:
        if zipf_frequency(word, "en") != values[word]:
            raise RuntimeError(f"wordfreq gives {word!r} {zipf_frequency(word, 'en')}, the table {values[word]}")
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    partial.unlink(missing_ok=True)
    with sqlite3.connect(partial) as connection:
        connection.execute("CREATE TABLE zipf (word TEXT PRIMARY KEY, zipf REAL NOT NULL) WITHOUT ROWID")
        connection.executemany("INSERT INTO zipf VALUES (?, ?)", sorted(values.items()))
    connection.close()
    os.replace(partial, path)  # whole or not at all, for the processes reading it


if __name__ == "__main__":
    build(Path(sys.argv[1]))
