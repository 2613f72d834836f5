"""Properties of the pure Lexicon: membership, prefixes and letter-by-letter traversal."""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexicon.core import Lexicon, LexiconFormatError
from tests.examples import examples

words_strategy = st.lists(st.text(alphabet="abcdez", min_size=1, max_size=8), max_size=60)


def spelled(lex, node=None, prefix=""):
    """Every word reachable from node through children(), in traversal order."""
    node = lex.root if node is None else node
    found = [prefix] if lex.is_word(node) else []
    for letter, target in lex.children(node):
        found.extend(spelled(lex, target, prefix + letter))
    return found


def test_small_example():
    """The design's example answers membership, prefix and length questions."""
    lex = Lexicon.from_words(["cat", "cats", "at"])
    assert "cat" in lex and "cats" in lex and "at" in lex
    assert "ca" not in lex and "dog" not in lex and "" not in lex
    assert lex.has_prefix("ca") and lex.has_prefix("cats") and not lex.has_prefix("cb")
    assert len(lex) == 3
    assert list(lex) == ["at", "cat", "cats"]


def test_traversal_of_example():
    """child/children/is_word walk the words letter by letter."""
    lex = Lexicon.from_words(["cat", "cats", "at"])
    assert [letter for letter, _ in lex.children(lex.root)] == ["a", "c"]
    c = lex.child(lex.root, "c")
    ca = lex.child(c, "a")
    cat = lex.child(ca, "t")
    assert not lex.is_word(c) and not lex.is_word(ca) and lex.is_word(cat)
    assert lex.is_word(lex.child(cat, "s"))
    assert lex.child(cat, "x") is None
    assert lex.child(lex.root, "b") is None
    assert lex.walk(lex.root, "cat") == cat
    assert lex.walk(lex.root, "cab") is None
    assert lex.letters(cat) == "s"
    assert isinstance(lex.is_word(cat), bool)


def test_empty_lexicon():
    """An empty lexicon holds nothing, not even the empty prefix."""
    lex = Lexicon.from_words([])
    assert len(lex) == 0 and list(lex) == [] and "a" not in lex
    assert not lex.has_prefix("") and lex.children(lex.root) == ()
    assert lex.child(lex.root, "a") is None and not lex.is_word(lex.root)


def test_duplicates_and_generators_are_accepted():
    """Duplicates count once; any iterable works."""
    lex = Lexicon.from_words(w for w in ["ab", "ab", "b"])
    assert len(lex) == 2 and list(lex) == ["ab", "b"]


def test_non_letters_are_not_children():
    """Letters outside the lexicon's alphabet lead nowhere."""
    lex = Lexicon.from_words(["ab"])
    for letter in string.ascii_uppercase + "-' ":
        assert lex.child(lex.root, letter) is None


@settings(deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy, st.text(alphabet="abcdez", max_size=9))
def test_membership_equals_source_set(words, probe):
    """A word is in the lexicon exactly when it was in the source."""
    lex = Lexicon.from_words(words)
    assert (probe in lex) == (probe in set(words) and probe != "")
    for word in words:
        assert word in lex


@settings(deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy, st.text(alphabet="abcdez", max_size=9))
def test_has_prefix_equals_some_word_starts_with(words, prefix):
    """has_prefix(p) is true exactly when some word starts with p."""
    lex = Lexicon.from_words(words)
    assert lex.has_prefix(prefix) == any(w.startswith(prefix) for w in words)


@settings(deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy)
def test_near_misses_agree_with_the_source_set(words):
    """Every prefix and one-letter extension of a source word is a word, and a prefix,
    exactly as the source set says (the probes a shared-suffix automaton gets wrong)."""
    lex = Lexicon.from_words(words)
    source = set(words)
    probes = {w[:i] for w in source for i in range(len(w) + 1)}
    probes |= {w + letter for w in source for letter in "abcdez"}
    for probe in probes:
        assert (probe in lex) == (probe in source and probe != ""), probe
        assert lex.has_prefix(probe) == any(w.startswith(probe) for w in source), probe
        node = lex.walk(lex.root, probe)
        assert (node is not None and lex.is_word(node)) == (probe in source and probe != "")


@settings(deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy)
def test_traversal_yields_exactly_the_words(words):
    """Walking children() from the root spells each word once, in sorted order."""
    lex = Lexicon.from_words(words)
    assert spelled(lex) == sorted(set(words))
    assert list(lex) == sorted(set(words))
    assert len(lex) == len(set(words))


@settings(max_examples=examples(50), deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy)
def test_children_agree_with_child(words):
    """children(node) lists exactly the letters for which child(node, letter) exists."""
    lex = Lexicon.from_words(words)
    stack = [lex.root]
    while stack:
        node = stack.pop()
        pairs = lex.children(node)
        assert [letter for letter, _ in pairs] == sorted(letter for letter, _ in pairs)
        assert "".join(letter for letter, _ in pairs) == lex.letters(node)
        for letter in "abcdefz":
            expected = dict(pairs).get(letter)
            assert lex.child(node, letter) == expected
        stack.extend(t for _, t in pairs)


@settings(deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy)
def test_precompiled_form_round_trips(words):
    """from_bytes(to_bytes()) gives a lexicon with the same words and traversal."""
    lex = Lexicon.from_words(words)
    again = Lexicon.from_bytes(lex.to_bytes())
    assert list(again) == list(lex) and len(again) == len(lex)
    assert spelled(again) == spelled(lex)


def test_pickle_round_trips():
    """A lexicon survives pickling (it travels as its precompiled form)."""
    import pickle

    lex = Lexicon.from_words(["cat", "cats", "at"])
    assert list(pickle.loads(pickle.dumps(lex))) == ["at", "cat", "cats"]


@pytest.mark.parametrize("data", [b"", b"garbage", b"WGLEX\x00\x01\x00" + b"\x00" * 20])
def test_malformed_bytes_are_refused(data):
    """Bytes that are not a precompiled lexicon raise LexiconFormatError."""
    with pytest.raises(LexiconFormatError):
        Lexicon.from_bytes(data)


def test_truncated_bytes_are_refused():
    """A precompiled lexicon cut short is refused, not half loaded."""
    data = Lexicon.from_words(["cat", "dog"]).to_bytes()
    with pytest.raises(LexiconFormatError):
        Lexicon.from_bytes(data[:-1])


def test_children_are_cached_and_stable():
    """children() returns equal tuples on every call, also after the cache is emptied."""
    lex = Lexicon.from_words(["ab", "ac", "b"])
    first = lex.children(lex.root)
    assert lex.children(lex.root) is first
    assert lex.children(lex.child(lex.root, "a")) == (
        ("b", lex.child(lex.child(lex.root, "a"), "b")),
        ("c", lex.child(lex.child(lex.root, "a"), "c")),
    )


def test_walk_follows_multi_letter_faces():
    """walk() follows "qu" as two letters; child() is for one letter only."""
    lex = Lexicon.from_words(["quit", "quiz"])
    qu = lex.walk(lex.root, "qu")
    assert qu == lex.child(lex.child(lex.root, "q"), "u")
    assert lex.letters(lex.child(qu, "i")) == "tz"
    assert lex.walk(None, "a") is None and lex.walk(lex.root, "") == lex.root


def test_non_ascii_words_are_refused():
    """Words must be ASCII so that each edge is one byte in the precompiled form."""
    with pytest.raises(ValueError):
        Lexicon.from_words(["café"])


@settings(max_examples=examples(50), deadline=None)  # a loaded machine is slow, not wrong
@given(words_strategy)
def test_tables_agree_with_traversal(words):
    """Inlined steps over tables() give the same nodes as child() and is_word()."""
    lex = Lexicon.from_words(words)
    t = lex.tables()
    stack = [lex.root]
    while stack:
        node = stack.pop()
        assert (node < t.n_final) == lex.is_word(node)
        for letter in "abcdez":
            i = t.node_letters[node].find(letter)
            assert (None if i < 0 else t.targets[t.first[node] + i]) == lex.child(node, letter)
        stack.extend(target for _, target in lex.children(node))
