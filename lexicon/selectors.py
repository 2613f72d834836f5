"""Lexicon reads that are a player's own: whether they chose to see offensive words."""

from __future__ import annotations

from .models import OffensiveWordsShown


def offensive_words_shown(user) -> bool:
    """Whether ``user`` chose to see offensive words in "words nobody found" (off by default)."""
    return bool(user and user.is_authenticated) and OffensiveWordsShown.objects.filter(user=user).exists()
