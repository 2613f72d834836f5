"""Rebuild the compressed word lists in this directory from the raw SCOWL lists.

Usage (from the repository root)::

    apt-get download scowl && dpkg -x scowl_*.deb /tmp/scowl
    python -m lexicon.data.build_wordlists /tmp/scowl/usr/share/dict/scowl

The raw SCOWL "final" lists are named ``<spelling>-<category>.<size>``.  Only the
``words`` category is read: ``upper`` (capitalised words), ``proper-names``,
``abbreviations`` and ``contractions`` are never used, and ``special-*`` lists are
skipped.  Each word then goes through ``normalise``; words it rejects are dropped.
"""

from __future__ import annotations

import lzma
import re
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent

# code -> (spelling categories, largest SCOWL size, shortest word, longest word or None)
RECIPES: dict[str, tuple[tuple[str, ...], int, int, int | None]] = {
    "en-gb": (("english", "british", "british_variant_1", "british_variant_2"), 70, 2, None),
    "en-us": (("english", "american", "variant_1", "variant_2"), 70, 2, None),
    "common": (("english", "american", "british"), 50, 2, 10),
    "wordgame": (
        (
            "english",
            "american",
            "british",
            "british_z",
            "canadian",
            "variant_1",
            "variant_2",
            "british_variant_1",
            "british_variant_2",
        ),
        80,
        2,
        None,
    ),
}
SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
_LETTERS = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")
# SCOWL lists letter plurals ("cs", "ms") and unit symbols ("kb", "lm") as words; a word
# without a vowel is dropped unless it is one of these real ones.
VOWELLESS_WORDS = frozenset(
    "brr brrr crwth crwths cwm cwms grr hm hmm mm nth pfft pht psst pst sh shh tsk tsks tsktsk tsktsks zzz".split()
)


def normalise(entry: str) -> str | None:
    """Return the lower-case a-z form of a SCOWL entry, or None to drop it.

    Capitalised words (names, places, abbreviations), possessives and anything with an
    apostrophe, hyphen, space or digit are dropped; accents are removed (café -> cafe);
    a word without a vowel (a e i o u y) is dropped unless listed in ``VOWELLESS_WORDS``.
    """
    entry = entry.strip()
    if not entry or entry[0].isupper() or entry != entry.lower():
        return None
    plain = unicodedata.normalize("NFKD", entry).encode("ascii", "ignore").decode("ascii")
    if not _LETTERS.fullmatch(plain):
        return None
    if not _VOWEL.search(plain) and plain not in VOWELLESS_WORDS:
        return None
    return plain


def read_scowl(scowl_dir: Path, spellings: tuple[str, ...], max_size: int) -> set[str]:
    """Return the normalised words of the given spellings up to ``max_size``."""
    words: set[str] = set()
    for spelling in spellings:
        for size in SIZES:
            if size > max_size:
                break
            path = scowl_dir / f"{spelling}-words.{size}"
            if not path.exists():
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                word = normalise(line)
                if word is not None:
                    words.add(word)
    return words


def build(scowl_dir: Path) -> dict[str, int]:
    """Write ``<code>.txt.xz`` for every recipe; return the word count per code."""
    counts = {}
    for code, (spellings, max_size, shortest, longest) in RECIPES.items():
        words = {
            w
            for w in read_scowl(scowl_dir, spellings, max_size)
            if len(w) >= shortest and (longest is None or len(w) <= longest)
        }
        text = "".join(w + "\n" for w in sorted(words)).encode("ascii")
        (HERE / f"{code}.txt.xz").write_bytes(lzma.compress(text, preset=9 | lzma.PRESET_EXTREME))
        counts[code] = len(words)
    return counts


if __name__ == "__main__":
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "/usr/share/dict/scowl")
    for code, count in build(source).items():
        print(f"{code}: {count} words")
