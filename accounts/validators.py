"""Checks on what players choose to be called."""

from __future__ import annotations

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
