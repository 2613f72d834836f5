"""How common an English word is, from the ``wordfreq`` package (Zipf scale).

The Zipf value is log10 of a word's frequency per billion words: "the" is about 7.7,
"cat" 4.8, "aardvark" 2.4, a word wordfreq never saw 0.  ``band`` names the range.
"""

from __future__ import annotations

from functools import lru_cache

#: (lowest Zipf value, band name), most common first.
BANDS = (
    (5.0, "very common"),
    (4.0, "common"),
    (3.0, "uncommon"),
    (1.5, "rare"),
    (0.01, "very rare"),
)
UNSEEN = "not seen"


@lru_cache(maxsize=4096)
def zipf(word: str) -> float:
    """Return the Zipf frequency of ``word`` in English (0.0 if never seen)."""
    from wordfreq import zipf_frequency  # loads its data on first use (~0.5 s)

    return zipf_frequency(word, "en")


def band_of(value: float) -> str:
    """Return the band name of a Zipf value."""
    for lowest, name in BANDS:
        if value >= lowest:
            return name
    return UNSEEN


def band(word: str) -> str:
    """Return the frequency band of ``word``: "very common" ... "very rare", "not seen"."""
    return band_of(zipf(word))
