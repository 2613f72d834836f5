"""Left parts: every DAWG prefix a rack can spell, indexed for the anchors of a search."""

from __future__ import annotations

import cython

from games.engine.tiles import BLANK


@cython.cclass
class LeftParts:
    """Every DAWG prefix the rack can spell, indexed for anchors.

    ``upto(longest)[size][letter]`` lists the left parts of ``size`` letters that a
    word can continue with ``letter``, as (node after that letter, the left part's
    letters, the tiles they take ("?" for a blank), letter still on the rack, blank
    still on the rack). With ``every_way`` a letter is spelled with its own tile and with a blank;
    without, with its own tile while one is left, else a blank (see ``search.searcher``).
    The same index serves every anchor of every line; it is built again, longer, only
    if an anchor needs left parts longer than it holds.
    """

    root = cython.declare(tuple)
    counts = cython.declare(dict)
    every_way = cython.declare(cython.bint)
    by_size = cython.declare(list, visibility="readonly")
    followed = cython.declare(dict)
    hint = cython.declare(cython.int, visibility="public")
    longest = cython.declare(cython.int)

    def __init__(self, root: tuple, counts: dict, every_way: bool) -> None:
        self.root, self.counts, self.every_way = root, counts, every_way
        self.by_size = []
        self.followed = {}
        self.hint = 0  # the longest any anchor may need, to build the index only once
        self.longest = 0

    def upto(self, longest: int) -> list[dict]:
        if len(self.by_size) > longest:
            return self.by_size
        longest = max(longest, self.hint)
        by_size = [{letter: [] for letter in "abcdefghijklmnopqrstuvwxyz"} for _ in range(longest + 1)]
        self.by_size, self.longest = by_size, longest
        self.grow(self.root, 0, "", "", "".join(sorted(tile * count for tile, count in self.counts.items())))
        self.followed = {}
        return by_size

    @cython.cfunc
    @cython.returns(cython.void)
    @cython.locals(
        node=tuple,
        size=cython.int,
        word=str,
        used=str,
        rest=str,
        index=dict,
        deeper=cython.bint,
        letters=str,
        children=tuple,
        child=tuple,
        after_blank=str,
        previous=str,
        k=cython.Py_ssize_t,
        n=cython.Py_ssize_t,
        every_way=cython.bint,
    )
    def grow(self, node, size, word, used, rest):
        # ``word``: the left part's letters; ``used``: the tiles it took ("?" for a
        # blank), one per letter; ``rest``: the rack tiles still free, sorted ("?"
        # first), so membership and removal are string operations.
        if not rest:
            return
        index = self.by_size[size]
        deeper = size < self.longest
        every_way = self.every_way
        size += 1
        letters, children = node[0], node[1]
        n = len(letters)
        if rest[0] == BLANK:
            after_blank = rest[1:]
            if not deeper:
                # The longest size: entries only, without a call per child.
                for k in range(n):
                    letter = letters[k]
                    index[letter].append((children[k], word, used, letter in rest, True))
                return
            for k in range(n):
                letter = letters[k]
                child = children[k]
                # A child without letters ends every word through it: it leads to
                # no longer left part (the call would only return).
                if letter in rest:
                    index[letter].append((child, word, used, True, True))
                    if child[0]:
                        self.grow(child, size, word + letter, used + letter, rest.replace(letter, "", 1))
                        if every_way:
                            self.grow(child, size, word + letter, used + BLANK, after_blank)
                else:
                    index[letter].append((child, word, used, False, True))
                    if child[0]:
                        self.grow(child, size, word + letter, used + BLANK, after_blank)
        else:
            # Without a blank only the rack's own letters can follow: look those
            # up rather than walk every child.
            previous = ""
            for letter in rest:
                if letter == previous:
                    continue
                previous = letter
                k = letters.find(letter)
                if k >= 0:
                    child = children[k]
                    index[letter].append((child, word, used, True, False))
                    if deeper and child[0]:
                        self.grow(child, size, word + letter, used + letter, rest.replace(letter, "", 1))

    @cython.locals(entries=list, entry=tuple, index=dict, bit=cython.long, mask=cython.long)
    def followed_by(self, size: int, letter: str, first: str) -> list:
        """The left parts of ``size`` letters before ``letter`` whose word can go on
        with ``first`` after it (kept: other anchors before the same tile ask again)."""
        key = (size, letter, first)
        entries = self.followed.get(key)
        if entries is None:
            index = self.by_size[size]
            bit = 1 << (ord(first) - 97)
            entries = self.followed[key] = []
            for entry in index[letter]:
                # The node's letters as bits (see dawg): one & rather than a str search.
                mask = cython.cast(tuple, entry[0])[3]
                if mask & bit:
                    entries.append(entry)
        return entries
