"""Rebuild ``definitions.tsv.xz`` in this directory from the WordNet 3.0 database.

Usage (from the repository root)::

    apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wordnet
    python -m lexicon.data.build_definitions /tmp/wordnet/usr/share/wordnet

Each line of the output is ``word<TAB>part of speech<TAB>definition`` (part of speech
one of n, v, a, r as WordNet writes them), or ``word<TAB>=<pos><TAB>base form``
for an irregular inflection from WordNet's exception lists (``geese =n goose``). Only words of
two or more letters a-z are kept, at most ``SENSES`` senses a word and part of speech,
in WordNet's order (most frequent first); a definition is WordNet's gloss without its
quoted examples.
"""

from __future__ import annotations

import lzma
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "definitions.tsv.xz"
SENSES = 3
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_WORD = re.compile(r"[a-z]{2,}")


def _gloss(line: str) -> str:
    gloss = line.split(" | ", 1)[1].strip()
    # Examples follow the definition as '; "..."'; keep the definition.
    parts = [p.strip() for p in gloss.split(";")]
    kept = [p for p in parts if p and not p.startswith('"')]
    return "; ".join(kept) if kept else parts[0].strip('"')


def build(wordnet_dir: Path) -> list[str]:
    lines: list[str] = []
    for pos, name in POS_FILES.items():
        data = wordnet_dir / f"data.{name}"
        with data.open("rb") as handle:
            blob = handle.read()
        for raw in (wordnet_dir / f"index.{name}").read_text("utf-8").splitlines():
            if raw.startswith(" "):
                continue  # the licence header
            fields = raw.split()
            lemma = fields[0]
            if not _WORD.fullmatch(lemma):
                continue
            synset_count = int(fields[2])
            offsets = [int(o) for o in fields[-synset_count:]][:SENSES]
            for offset in offsets:
                end = blob.index(b"\n", offset)
                gloss = _gloss(blob[offset:end].decode("utf-8"))
                gloss = gloss.replace("\t", " ")
                lines.append(f"{lemma}\t{pos}\t{gloss}")
        for raw in (wordnet_dir / f"{name}.exc").read_text("utf-8").splitlines():
            inflected, *bases = raw.split()
            for base in bases[:1]:
                if _WORD.fullmatch(inflected) and _WORD.fullmatch(base) and inflected != base:
                    lines.append(f"{inflected}\t={pos}\t{base}")
    # Sorted by word and stable within it, so a word's senses stay in WordNet's order.
    lines = list(dict.fromkeys(lines))
    lines.sort(key=lambda line: line.split("\t", 1)[0])
    return lines


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        sys.exit(__doc__)
    lines = build(Path(argv[0]))
    with lzma.open(OUTPUT, "wt", encoding="utf-8", preset=9 | lzma.PRESET_EXTREME) as out:
        out.write("\n".join(lines) + "\n")
    print(f"{OUTPUT.name}: {len(lines)} lines, {OUTPUT.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
