"""Checks on what players choose to be called: usernames and the display names shown
beside them, so that no name can pass for another player's."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources

from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError


def validate_unconfusable_username(value: str) -> None:
    """Refuse names that could pass for another player's: ``аlice`` with a Cyrillic а.

    A name keeps to one script (digits and ``. @ + - _`` go with any), and a name outside
    plain ASCII may not use letters that look like Latin ones, so every name that reads
    as a Latin name is spelt in Latin letters and the case-insensitive uniqueness check
    sees it. The homoglyph and script tables are the Unicode Consortium's, through
    ``confusable_homoglyphs``.
    """
    if confusables.is_mixed_script(value):
        raise ValidationError("Use letters of one alphabet: this name mixes scripts.", code="mixed_script")
    if not value.isascii() and confusables.is_confusable(value, preferred_aliases=["latin"]):
        raise ValidationError(
            "This name has letters that look like Latin ones; spell it in Latin letters.", code="confusable"
        )


#: The names deleted accounts take (``player_data.deleted_username``): a player holding one
#: would stop that account from being deleted, and would read as deleted themselves.
_DELETED_NAME = re.compile(r"deleted-\d+", re.IGNORECASE)


def validate_not_a_deleted_name(value: str) -> None:
    """Refuse ``deleted-<number>``: the names deleted accounts are given."""
    if _DELETED_NAME.fullmatch(value):
        raise ValidationError("Names like this are kept for deleted accounts; choose another.", code="reserved")


#: Unicode categories no display name may hold: controls, format characters (the bidi
#: overrides and the zero-width ones among them), line and paragraph separators, private
#: use, surrogates and unassigned code points.
_UNSHOWN = {"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"}


def validate_display_name(value: str) -> None:
    """The username rules (one script, no look-alikes of Latin letters), plus: nothing
    that is not drawn as itself (control, bidi, zero-width or line characters), and no
    space but single plain spaces between words."""
    for char in value:
        if unicodedata.category(char) in _UNSHOWN:
            raise ValidationError(
                "A display name may not hold control, direction, invisible or line-break characters.",
                code="unshown",
            )
    if value != value.strip() or "  " in value or any(char.isspace() and char != " " for char in value):
        raise ValidationError("Separate the words of a display name by single spaces.", code="spaces")
    validate_unconfusable_username(value)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each character of the Unicode confusables table mapped to one prototype of all the
    characters that look like it: the smallest code point among them, found by joining
    the table's look-alike pairs into groups (the table lists pairs, not whole groups)."""
    table = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.setdefault(char, char) != char:
            parent[char] = parent[parent[char]]
            char = parent[char]
        return char

    for char, homoglyphs in table.items():
        for homoglyph in homoglyphs:
            other = homoglyph["c"]
            if len(char) == 1 and len(other) == 1:
                first, second = root(char), root(other)
                if first != second:
                    parent[max(first, second)] = min(first, second)
    return {char: root(char) for char in parent}


def name_keys(value: str) -> tuple[str, str]:
    """What a name looks like, with case and look-alike letters folded, two ways: names
    that share either key can pass for each other.

    One fold cannot do: a capital I is an i to case folding and an l to the eye
    (``ALICE`` and ``aIice`` both pass for ``alice``). So the first key folds case, then
    look-alikes; the second look-alikes, then case.
    """
    prototypes = _prototypes()

    def fold(text: str) -> str:
        return "".join(prototypes.get(char, char) for char in unicodedata.normalize("NFKC", text))

    return fold(value.casefold()), fold(value).casefold()
