"""The lexicon as linked tuples, one per DAWG node: what the move generator walks.

A node is a tuple (letters, children, is_word, mask): ``letters`` the str of letters
that continue a word from it, ``children`` the nodes they lead to, in the same order,
``mask`` the same letters as bits (bit ``ord(letter) - 97``), so "can the word go on
with a letter this square allows" is one ``&`` of two ints.
"""

from __future__ import annotations

from collections.abc import Iterable
from weakref import WeakKeyDictionary

_DAWGS: WeakKeyDictionary[object, tuple] = WeakKeyDictionary()


def dawg(lexicon) -> tuple:
    """The lexicon as linked tuples (one per DAWG node), built once per Lexicon object.

    A tuple per node holds the node's letters (the Lexicon's own interned strings) and
    its children: about 6 MB for the ``en`` list where a dict per node took 11 MB, while
    iterating ``zip(letters, children)`` costs what iterating a dict does.
    """
    try:
        root = _DAWGS.get(lexicon)
    except TypeError:  # a lexicon-like object that cannot be weakly referenced
        return _build_dawg(lexicon)
    if root is None:
        root = _DAWGS[lexicon] = _build_dawg(lexicon)
    return root


def _build_dawg(lexicon) -> tuple:
    if hasattr(lexicon, "tables"):
        node_letters, first, targets, n_final = lexicon.tables()
        # A list indexed by node id: the one-off scaffolding stays small.
        built: list | dict = [None] * len(node_letters)

        def edges(node):
            return node_letters[node], targets[first[node] : first[node + 1]]

        def is_word(node):
            return node < n_final

        def done(node):
            return built[node] is not None
    else:
        letters_of, child_of, is_word = lexicon.letters, lexicon.child, lexicon.is_word
        built = {}

        def edges(node):
            letters = letters_of(node)
            return letters, [child_of(node, letter) for letter in letters]

        def done(node):
            return node in built

    # Children before parents, without recursion (a word list may hold long words).
    stack = [lexicon.root]
    while stack:
        node = stack[-1]
        if done(node):
            stack.pop()
            continue
        letters, targets_of_node = edges(node)
        waiting = [target for target in targets_of_node if not done(target)]
        if waiting:
            stack.extend(waiting)
            continue
        stack.pop()
        built[node] = (
            letters,
            tuple([built[target] for target in targets_of_node]),
            is_word(node),
            letter_mask(letters),
        )
    return built[lexicon.root]


def letter_mask(letters: Iterable[str]) -> int:
    """The letters a..z as bits, bit ``ord(letter) - 97`` for each."""
    mask = 0
    for letter in letters:
        mask |= 1 << (ord(letter) - 97)
    return mask


def walk(node: tuple | None, letters: Iterable[str]) -> tuple | None:
    for letter in letters:
        if node is None:
            return None
        i = node[0].find(letter)
        node = node[1][i] if i >= 0 else None
    return node
