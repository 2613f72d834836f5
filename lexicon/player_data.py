"""A player's dictionary requests, for their download and their account's deletion."""

from __future__ import annotations

from .models import DictionaryRequest


def export_player(user) -> list[dict]:
    return [
        {
            "word": r.word,
            "lexicon": r.lexicon.code,
            "action": r.action,
            "reason": r.reason,
            "status": r.status,
            "asked_at": r.created_at.isoformat(),
            "decided_at": r.decided_at.isoformat() if r.decided_at else None,
        }
        for r in DictionaryRequest.objects.filter(requester=user).select_related("lexicon").order_by("created_at")
    ]


def forget_player(user) -> None:
    """The requests stay with the moderators' decisions (the words' history); the
    player's reasons, their own words, go, and so does their support of others' requests."""
    DictionaryRequest.objects.filter(requester=user).update(reason="")
    for request in DictionaryRequest.objects.filter(supporters=user):
        request.supporters.remove(user)
