"""A pure, immutable word list that can be walked letter by letter.

``Lexicon`` stores its words as a minimal acyclic automaton (a DAWG): words that share
a prefix share the path from the root, words that share a suffix share the tail.  The
automaton lives in a few flat arrays, so a 250,000-word list takes about 2 MB and a
precompiled one loads from bytes in a few milliseconds.

Public API (stable)::

    lex = Lexicon.from_words(["cat", "cats", "at"])   # any iterable of words
    "cat" in lex; lex.has_prefix("ca"); len(lex); list(lex)  # words in sorted order

    # letter-by-letter traversal (hunt solver, crossword move generator)
    lex.root                  # node id (int) of the empty prefix
    lex.child(node, letter)   # child node id, or None if no word continues with letter
    lex.children(node)        # tuple of (letter, child) pairs, letters in a-z order
    lex.is_word(node)         # True if the prefix spelled from root to node is a word

    # extras
    lex.letters(node)         # str of the letters that continue from node, a-z order
    lex.walk(node, letters)   # follow several letters (a "qu" face); node id or None
    lex.to_bytes(); Lexicon.from_bytes(data)   # the precompiled form (see FORMAT)

    # fastest path, for a solver that inlines its steps (no call per letter)
    t = lex.tables()          # Tables(node_letters, first, targets, n_final)
    i = t.node_letters[node].find(letter)      # child(node, letter) is
    nxt = None if i < 0 else t.targets[t.first[node] + i]
    word_ends_here = node < t.n_final          # is_word(node)

``child`` takes exactly one character; pass multi-letter faces such as "qu" to ``walk``.
``child``, ``children``, ``is_word``, ``letters`` and ``walk`` are plain functions held
by the instance (closures over its arrays), so ``child = lex.child`` in a hot loop costs
no attribute or bound-method lookups.  ``children`` keeps the tuples it builds in a
bounded per-lexicon cache, so repeated calls on the same node allocate nothing.

Node ids are small ints, stable for one ``Lexicon`` value (and for the bytes it came
from) but not between different word lists.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

import cython

#: Header of the precompiled form: magic, then node, edge, word-node and word counts
#: and the root, all little-endian; then ``first`` (uint32 per node + 1), ``targets``
#: (uint32 per edge) and the edge letters (one ASCII byte per edge).
FORMAT = struct.Struct("<8sIIIII")
MAGIC = b"WGLEX\x00\x01\x00"

#: Most nodes ``children`` keeps built tuples for; the hot nodes near the root are
#: rebuilt within microseconds after the cache is emptied.
CHILDREN_CACHE_SIZE = 4096


class Tables(NamedTuple):
    """The arrays behind a Lexicon, read-only, for callers that inline traversal.

    ``node_letters[n]`` is the str of letters leaving node n (a-z order); the child by
    its i-th letter is ``targets[first[n] + i]``; node n ends a word iff n < n_final.
    """

    node_letters: tuple[str, ...]
    first: array
    targets: array
    n_final: int


@cython.cclass
class _Automaton:
    """The arrays a look-up walks, typed for the compiled build (``make engine``): there
    a look-up scans each node's edge letters in C and never makes a Python number.
    Run as Python it follows the same edges with ``str.find``."""

    first = cython.declare(cython.uint[:])
    targets = cython.declare(cython.uint[:])
    text = cython.declare(str)
    node_letters = cython.declare(tuple)
    n_final = cython.declare(cython.Py_ssize_t)
    root = cython.declare(cython.Py_ssize_t)

    def __init__(self, first: array, text: str, targets: array, node_letters: tuple, n_final: int, root: int) -> None:
        self.first, self.targets, self.text, self.node_letters = first, targets, text, node_letters
        self.n_final, self.root = n_final, root

    # Every index below stays in range by the tables' shape, which loading checks
    # (``Lexicon.from_bytes``: first rising from 0 to the edge count, targets below the
    # node count, the root a node), so the compiled walk checks no index.
    @cython.ccall
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.locals(word=str, node=cython.Py_ssize_t, i=cython.Py_ssize_t, end=cython.Py_ssize_t, letter=cython.Py_UCS4)
    def contains(self, word) -> bool:
        """True if ``word`` (a non-empty str) is a word."""
        node = self.root
        if cython.compiled:
            text, first = self.text, self.first
            for letter in word:
                i, end = first[node], first[node + 1]
                while i < end and text[i] != letter:
                    i += 1
                if i == end:
                    return False
                node = self.targets[i]
        else:
            node_letters, first, targets = self.node_letters, self.first, self.targets
            for letter in word:
                i = node_letters[node].find(letter)
                if i < 0:
                    return False
                node = targets[first[node] + i]
        return node < self.n_final


class LexiconFormatError(ValueError):
    """Raised when bytes are not a well-formed precompiled lexicon."""


class Lexicon:
    """An immutable set of lower-case words with prefix queries and node traversal."""

    __slots__ = (
        "_first",
        "_text",
        "_targets",
        "_n_final",
        "_count",
        "_node_letters",
        "_automaton",
        "root",
        "child",
        "children",
        "is_word",
        "letters",
        "walk",
        "__weakref__",
    )

    root: int
    child: Callable[[int, str], int | None]
    children: Callable[[int], tuple[tuple[str, int], ...]]
    is_word: Callable[[int], bool]
    letters: Callable[[int], str]
    walk: Callable[[int | None, str], int | None]

    def __init__(self, first: array, text: str, targets: array, n_final: int, count: int, root: int) -> None:
        # Invariants: node n's edges are text[first[n]:first[n + 1]] (strictly a-z
        # order) leading to targets[same range]; nodes 0 .. n_final - 1 are exactly
        # the nodes that end a word.
        self._first = first
        self._text = text
        self._targets = targets
        self._n_final = n_final
        self._count = count
        self.root = root
        node_letters = tuple(sys.intern(text[first[n] : first[n + 1]]) for n in range(len(first) - 1))
        self._node_letters = node_letters
        self._automaton = _Automaton(first, text, targets, node_letters, n_final, root)
        cache: dict[int, tuple[tuple[str, int], ...]] = {}

        def child(node: int, letter: str) -> int | None:
            """Return the node reached from ``node`` by ``letter``, or None."""
            i = node_letters[node].find(letter)
            if i < 0:
                return None
            return targets[first[node] + i]

        def children(node: int) -> tuple[tuple[str, int], ...]:
            """Return the (letter, child) pairs leaving ``node``, letters in a-z order."""
            pairs = cache.get(node)
            if pairs is None:
                if len(cache) >= CHILDREN_CACHE_SIZE:
                    cache.clear()
                pairs = cache[node] = tuple(zip(node_letters[node], targets[first[node] : first[node + 1]]))
            return pairs

        def is_word(node: int) -> bool:
            """Return True if the prefix that leads to ``node`` is a word."""
            return node < n_final

        def letters(node: int) -> str:
            """Return the letters that continue some word from ``node``, a-z order."""
            return node_letters[node]

        def walk(node: int | None, word: str) -> int | None:
            """Follow the letters of ``word`` from ``node``; None once no word continues."""
            for letter in word:
                if node is None:
                    return None
                i = node_letters[node].find(letter)
                node = None if i < 0 else targets[first[node] + i]
            return node

        self.child = child
        self.children = children
        self.is_word = is_word
        self.letters = letters
        self.walk = walk

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Lexicon:
        """Build a lexicon from any iterable of words (duplicates are ignored)."""
        return _build(sorted(set(words)))

    # -- set-like queries --------------------------------------------------------

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        return self._automaton.contains(word)

    def has_prefix(self, prefix: str) -> bool:
        """Return True if some word starts with ``prefix`` (the empty prefix included)."""
        if not self._count:
            return False
        return self.walk(self.root, prefix) is not None

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        """Yield every word in sorted order."""
        first, text, targets, n_final = self._first, self._text, self._targets, self._n_final
        stack = [(self.root, "")]
        while stack:
            node, prefix = stack.pop()
            if node < n_final:
                yield prefix
            for i in range(first[node + 1] - 1, first[node] - 1, -1):
                stack.append((targets[i], prefix + text[i]))

    def __repr__(self) -> str:
        return f"<Lexicon of {self._count} words>"

    def __reduce__(self):
        return (_from_bytes, (self.to_bytes(),))

    def tables(self) -> Tables:
        """Return the arrays behind the traversal functions (see ``Tables``)."""
        return Tables(self._node_letters, self._first, self._targets, self._n_final)

    @property
    def node_count(self) -> int:
        """Number of nodes of the automaton."""
        return len(self._first) - 1

    @property
    def edge_count(self) -> int:
        """Number of edges of the automaton."""
        return len(self._targets)

    # -- precompiled form --------------------------------------------------------

    def to_bytes(self) -> bytes:
        """Return the precompiled form, which ``from_bytes`` loads back."""
        first, targets = array("I", self._first), array("I", self._targets)
        if sys.byteorder == "big":
            first.byteswap()
            targets.byteswap()
        header = FORMAT.pack(MAGIC, len(first) - 1, len(targets), self._n_final, self._count, self.root)
        return header + first.tobytes() + targets.tobytes() + self._text.encode("ascii")

    @classmethod
    def from_bytes(cls, data: bytes) -> Lexicon:
        """Load a lexicon from ``to_bytes`` output; LexiconFormatError if malformed."""
        if len(data) < FORMAT.size:
            raise LexiconFormatError("too short for a lexicon header")
        magic, nodes, edges, n_final, count, root = FORMAT.unpack_from(data)
        if magic != MAGIC:
            raise LexiconFormatError("not a precompiled lexicon (bad magic)")
        at = FORMAT.size
        if len(data) != at + 4 * (nodes + 1) + 5 * edges:
            raise LexiconFormatError("length does not match the header")
        first, targets = array("I"), array("I")
        first.frombytes(data[at : at + 4 * (nodes + 1)])
        at += 4 * (nodes + 1)
        targets.frombytes(data[at : at + 4 * edges])
        at += 4 * edges
        if sys.byteorder == "big":
            first.byteswap()
            targets.byteswap()
        try:
            text = data[at:].decode("ascii")
        except UnicodeDecodeError:
            raise LexiconFormatError("edge letters are not ASCII") from None
        if (
            nodes == 0
            or first[0] != 0
            or first[-1] != edges
            or root >= nodes
            or n_final > nodes
            or (edges and max(targets) >= nodes)
            or any(first[n] > first[n + 1] for n in range(nodes))
        ):
            raise LexiconFormatError("inconsistent node or edge tables")
        return cls(first, text, targets, n_final, count, root)


def _from_bytes(data: bytes) -> Lexicon:
    # A plain function, since some libraries (twisted) replace how bound methods pickle.
    return Lexicon.from_bytes(data)


def _build(words: list[str]) -> Lexicon:
    """Build the minimal automaton of sorted, distinct ``words`` (Daciuk's method)."""
    final: list[bool] = [False]
    edges: list[dict[str, int]] = [{}]
    register: dict[tuple, int] = {}
    unchecked: list[tuple[int, str, int]] = []  # (parent, letter, child) of the last word

    def minimize(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, node = unchecked.pop()
            key = (final[node], tuple(edges[node].items()))
            same = register.get(key)
            if same is None:
                register[key] = node
            else:
                edges[parent][letter] = same

    previous = ""
    count = 0
    for word in words:
        if not word:
            continue
        if not word.isascii():
            raise ValueError(f"not a word of ASCII letters: {word!r}")
        common = 0
        for a, b in zip(word, previous):
            if a != b:
                break
            common += 1
        minimize(common)
        node = unchecked[-1][2] if unchecked else 0
        for letter in word[common:]:
            edges.append({})
            final.append(False)
            new = len(edges) - 1
            edges[node][letter] = new
            unchecked.append((node, letter, new))
            node = new
        final[node] = True
        previous = word
        count += 1
    minimize(0)
    return _flatten(0, final, edges, count)


def _flatten(root: int, final: list[bool], edges: list[dict[str, int]], count: int) -> Lexicon:
    """Lay the reachable nodes out in flat arrays, word-ending nodes first."""
    reachable: list[int] = []
    seen = {root}
    queue = [root]
    for node in queue:  # breadth first, so nodes near the root sit together
        reachable.append(node)
        for target in edges[node].values():
            if target not in seen:
                seen.add(target)
                queue.append(target)
    ordered = [n for n in reachable if final[n]] + [n for n in reachable if not final[n]]
    new_id = {old: new for new, old in enumerate(ordered)}
    first = array("I", [0])
    letters: list[str] = []
    targets = array("I")
    for old in ordered:
        for letter, target in edges[old].items():
            letters.append(letter)
            targets.append(new_id[target])
        first.append(len(letters))
    n_final = sum(1 for n in ordered if final[n])
    return Lexicon(first, "".join(letters), targets, n_final, count, new_id[root])
