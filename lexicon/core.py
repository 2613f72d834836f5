"""A pure, immutable word list that can be walked letter by letter.

``Lexicon`` stores its words as a minimal acyclic automaton (a DAWG): words that share
a prefix share the path from the root, words that share a suffix share the tail.

Public API (stable)::

    lex = Lexicon.from_words(["cat", "cats", "at"])   # any iterable of words
    "cat" in lex; lex.has_prefix("ca"); len(lex); list(lex)  # words in sorted order

    # letter-by-letter traversal (hunt solver, crossword move generator)
    lex.root                  # node id (int) of the empty prefix
    lex.child(node, letter)   # child node id, or None if no word continues with letter
    lex.children(node)        # tuple of (letter, child) pairs, letters in a-z order
    lex.is_word(node)         # True if the prefix spelled from root to node is a word

    # extras
    lex.walk(node, letters)   # follow several letters ("qu"); node id or None
    lex.letters(node)         # str of the letters that continue from node, a-z order

``child`` takes exactly one character; pass multi-letter faces such as "qu" to ``walk``.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Iterator


class Lexicon:
    """An immutable set of lower-case words with prefix queries and node traversal."""

    __slots__ = ("_first", "_letters", "_targets", "_n_final", "_count", "root")

    def __init__(self, first: array, letters: str, targets: array, n_final: int,
                 count: int, root: int) -> None:
        # Invariants: node n's edges are letters[first[n]:first[n + 1]] (a-z order)
        # leading to targets[same range]; nodes 0 .. n_final - 1 are exactly the
        # nodes that end a word.
        self._first = first
        self._letters = letters
        self._targets = targets
        self._n_final = n_final
        self._count = count
        self.root = root

    @classmethod
    def from_words(cls, words: Iterable[str]) -> "Lexicon":
        """Build a lexicon from any iterable of words (duplicates are ignored)."""
        return _build(sorted(set(words)))

    # -- traversal ---------------------------------------------------------------

    def child(self, node: int, letter: str) -> int | None:
        """Return the node reached from ``node`` by ``letter``, or None."""
        first = self._first
        i = self._letters.find(letter, first[node], first[node + 1])
        if i < 0:
            return None
        return self._targets[i]

    def children(self, node: int) -> tuple[tuple[str, int], ...]:
        """Return the (letter, child) pairs leaving ``node``, letters in a-z order."""
        start, end = self._first[node], self._first[node + 1]
        return tuple(zip(self._letters[start:end], self._targets[start:end]))

    def is_word(self, node: int) -> bool:
        """Return True if the prefix that leads to ``node`` is a word."""
        return node < self._n_final

    def walk(self, node: int | None, letters: str) -> int | None:
        """Follow ``letters`` one by one from ``node``; None once no word continues."""
        first, text, targets = self._first, self._letters, self._targets
        for letter in letters:
            if node is None:
                return None
            i = text.find(letter, first[node], first[node + 1])
            node = None if i < 0 else targets[i]
        return node

    def letters(self, node: int) -> str:
        """Return the letters that continue some word from ``node``, a-z order."""
        return self._letters[self._first[node]:self._first[node + 1]]

    # -- set-like queries --------------------------------------------------------

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        node = self.walk(self.root, word)
        return node is not None and node < self._n_final

    def has_prefix(self, prefix: str) -> bool:
        """Return True if some word starts with ``prefix`` (the empty prefix included)."""
        if not self._count:
            return False
        return self.walk(self.root, prefix) is not None

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        """Yield every word in sorted order."""
        stack = [(self.root, "")]
        while stack:
            node, prefix = stack.pop()
            if node < self._n_final:
                yield prefix
            start, end = self._first[node], self._first[node + 1]
            for i in range(end - 1, start - 1, -1):
                stack.append((self._targets[i], prefix + self._letters[i]))

    def __repr__(self) -> str:
        return f"<Lexicon of {self._count} words>"


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


def _flatten(root: int, final: list[bool], edges: list[dict[str, int]],
             count: int) -> Lexicon:
    """Lay the reachable nodes out in flat arrays, word-ending nodes first."""
    reachable: list[int] = []
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        reachable.append(node)
        for target in edges[node].values():
            if target not in seen:
                seen.add(target)
                stack.append(target)
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
