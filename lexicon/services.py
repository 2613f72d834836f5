"""Lexicon use cases: the lexicon rows, word checks, dictionary requests and decisions.

Loading a lexicon version for a game is ``lexicon.loading``'s (``get_lexicon``,
``current_version``); its names are importable from here too. An approved request makes
a new version, which every process serves at its next ``get_lexicon`` call.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from accounts.services import notify
from config.errors import Refused
from lexicon import (
    tasks,  # queued after commit; the task calls back into these services
    wordlists,
)
from lexicon.models import Action, DictionaryRequest, Lexicon, OffensiveWordsShown, Status, WordChange

# Loading a lexicon is the games' everyday read (``lexicon.loading``); it is named here
# too, where code has always found it beside the word checks.
from .loading import cache_dir as cache_dir
from .loading import changes_up_to as changes_up_to
from .loading import current_version as current_version
from .loading import forget_loaded as forget_loaded
from .loading import get_lexicon as get_lexicon
from .loading import loaded_lexicon as loaded_lexicon
from .selectors import offensive_words_shown as offensive_words_shown

LEXICONS = wordlists.CATALOGUE
UNION_PARTS = wordlists.UNIONS  # {"en": ("en-gb", "en-us")}
MAX_OPEN_REQUESTS = 10
MIN_LETTERS, MAX_LETTERS = 2, 15
_WORD = re.compile(r"[a-z]+")


# -- lexicon rows ----------------------------------------------------------------


def ensure_lexicons() -> list[Lexicon]:
    """Create the lexicon rows that do not exist yet; never touches versions."""
    rows = []
    for position, (code, name, description, accepts) in enumerate(LEXICONS):
        row, _ = Lexicon.objects.update_or_create(
            code=code,
            defaults={"name": name, "description": description, "accepts_requests": accepts, "position": position},
        )
        rows.append(row)
    return rows


MODERATORS_GROUP = "Dictionary moderators"


def ensure_moderators_group():
    """Create the group whose members may decide requests (staff still required)."""
    from django.contrib.auth.models import Group, Permission

    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(
        Permission.objects.get(content_type__app_label="lexicon", codename="moderate_dictionaryrequest")
    )
    return group


# -- word check ------------------------------------------------------------------


def normalise_word(text: str) -> str:
    return (text or "").strip().lower()


def without_accents(word: str) -> str | None:
    """Return ``word`` with its accents removed ("café" -> "cafe"), as the word lists
    store it, or None if it has none or is still not a-z letters."""
    plain = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode("ascii")
    if plain == word or not _WORD.fullmatch(plain):
        return None
    return plain


@dataclass(frozen=True)
class Presence:
    """Whether a word is in one lexicon, and which request a player could make there."""

    lexicon: Lexicon
    present: bool
    word: str = ""

    @property
    def action(self) -> str | None:
        """The change a player may ask for here, or None (see ``note``)."""
        if not self.lexicon.accepts_requests:
            return None
        if self.present:
            return Action.REMOVE
        return None if too_long_for(self.lexicon.code, self.word) else Action.ADD

    @property
    def note(self) -> str:
        """Why no change can be asked for here ("" if one can)."""
        if not self.lexicon.accepts_requests:
            return f"follows {' and '.join(UNION_PARTS.get(self.lexicon.code, ()))}"
        if self.action is None:
            longest = wordlists.LONGEST_WORD[self.lexicon.code]
            return f"words of {MIN_LETTERS} to {longest} letters only"
        return ""


def too_long_for(code: str, word: str) -> bool:
    """True if ``word`` is longer than the list ``code`` may hold (common: 10 letters)."""
    longest = wordlists.LONGEST_WORD.get(code)
    return longest is not None and len(word) > longest


def word_problem(word: str) -> str | None:
    """Return why ``word`` cannot be a lexicon word, or None if its shape is fine."""
    if not word:
        return "Type a word."
    if not _WORD.fullmatch(word):
        return "Use the letters a to z only (no spaces, digits, hyphens or apostrophes)."
    if not MIN_LETTERS <= len(word) <= MAX_LETTERS:
        return f"A word has {MIN_LETTERS} to {MAX_LETTERS} letters; this one has {len(word)}."
    return None


def word_presence(word: str, rows: list[Lexicon] | None = None) -> list[Presence]:
    """Return the word's presence in every lexicon (current versions), in display order.

    ``rows`` are the lexicon rows, when a caller checks many words with one query.
    """
    if rows is None:
        rows = list(Lexicon.objects.all()) or ensure_lexicons()
    return [Presence(row, word in get_lexicon(row.code, row.current_version), word) for row in rows]


def lexicons_containing(word: str, rows: list[Lexicon] | None = None) -> list[str]:
    """Return the codes of the lexicons whose current version holds ``word``."""
    return [p.lexicon.code for p in word_presence(word, rows) if p.present]


# -- requests --------------------------------------------------------------------


@transaction.atomic
def request_change(*, player, lexicon_code: str, word: str, action: str, reason: str) -> tuple[DictionaryRequest, bool]:
    """Ask for ``word`` to be added to or removed from a lexicon.

    Returns (request, joined): an open request for the same change is joined (the
    player becomes a supporter) instead of repeated.  Raises Refused with the
    reason, storing nothing, when the request is not allowed.
    """
    word = normalise_word(word)
    reason = (reason or "").strip()
    problem = word_problem(word)
    if problem:
        raise Refused(problem)
    if action not in Action.values:
        raise Refused("Choose whether to add or remove the word.")
    if not reason:
        raise Refused("Give a reason, so that the moderators can decide.")
    if len(reason) > 500:
        raise Refused("Keep the reason under 500 characters.")
    try:
        lexicon = Lexicon.objects.get(code=lexicon_code)
    except Lexicon.DoesNotExist:
        raise Refused(f"There is no lexicon {lexicon_code!r}.") from None
    if not lexicon.accepts_requests:
        parts = " or ".join(UNION_PARTS.get(lexicon.code, ()))
        raise Refused(f"{lexicon.name} is made of other lexicons; ask for {parts} instead.")
    if action == Action.ADD and too_long_for(lexicon.code, word):
        raise Refused(
            f"{lexicon.name} holds words of {MIN_LETTERS} to {wordlists.LONGEST_WORD[lexicon.code]}"
            f" letters only; “{word}” has {len(word)}."
        )
    # One player's requests are decided one at a time, so the open-request limit holds.
    get_user_model().objects.select_for_update().get(pk=player.pk)

    existing = (
        DictionaryRequest.objects.select_for_update()
        .filter(lexicon=lexicon, word=word, action=action, status=Status.OPEN)
        .first()
    )
    if existing is not None:
        return _join(existing, player), True

    # The same request may have been approved while the lock above was awaited: read the
    # version again, or the word would look absent and a second request would open.
    lexicon.refresh_from_db(fields=["current_version"])
    present = word in get_lexicon(lexicon.code, lexicon.current_version)
    if action == Action.ADD and present:
        raise Refused(f"“{word}” is already in {lexicon.name}.")
    if action == Action.REMOVE and not present:
        raise Refused(f"“{word}” is not in {lexicon.name}, so it cannot be removed.")
    open_count = DictionaryRequest.objects.filter(requester=player, status=Status.OPEN).count()
    if open_count >= MAX_OPEN_REQUESTS:
        raise Refused(f"You already have {open_count} open requests; wait for a decision on one of them.")
    try:
        with transaction.atomic():
            created = DictionaryRequest.objects.create(
                requester=player, lexicon=lexicon, word=word, action=action, reason=reason
            )
    except IntegrityError:
        # Another player opened the same request a moment ago: join theirs.
        existing = DictionaryRequest.objects.select_for_update().get(
            lexicon=lexicon, word=word, action=action, status=Status.OPEN
        )
        return _join(existing, player), True
    return created, False


def _join(request: DictionaryRequest, player) -> DictionaryRequest:
    if request.requester_id == player.pk:
        raise Refused("You have already asked for this; it is waiting for a moderator.")
    if request.supporters.filter(pk=player.pk).exists():
        raise Refused("You already support this request; it is waiting for a moderator.")
    request.supporters.add(player)
    return request


# -- decisions -------------------------------------------------------------------


def can_moderate(user) -> bool:
    return bool(user and user.is_active and user.is_staff and user.has_perm("lexicon.moderate_dictionaryrequest"))


@transaction.atomic
def request_decide(*, request_id: int, moderator, approve: bool, note: str = "") -> DictionaryRequest:
    """Approve or reject an open request; an approval makes the lexicon's next version.

    The request row is locked, so of two moderators deciding at the same moment the
    second finds it decided and is refused: one decision, at most one change.
    """
    if not can_moderate(moderator):
        raise PermissionDenied("Only moderators can decide dictionary requests.")
    request = DictionaryRequest.objects.select_for_update().select_related("lexicon").get(pk=request_id)
    if request.status != Status.OPEN:
        raise Refused(
            f"This request was already {request.get_status_display().lower()}"
            f"{' by ' + str(request.moderator) if request.moderator_id else ''}."
        )
    now = timezone.now()
    note = (note or "").strip()
    if approve:
        version = _apply(request, moderator=moderator, when=now, note=note)
    request.status = Status.APPROVED if approve else Status.REJECTED
    request.moderator = moderator
    request.decided_at = now
    request.moderator_note = note
    request.save(update_fields=["status", "moderator", "decided_at", "moderator_note"])
    _notify_decision(request, version if approve else None)
    return request


def requests_decide(
    *, request_ids, moderator, approve: bool, note: str = ""
) -> tuple[list[DictionaryRequest], list[str]]:
    """Decide several requests, each in its own transaction; return (decided, problems)."""
    decided, problems = [], []
    for request_id in request_ids:
        try:
            decided.append(request_decide(request_id=request_id, moderator=moderator, approve=approve, note=note))
        except Refused as refusal:
            problems.append(f"#{request_id}: {refusal}")
    return decided, problems


def _apply(request: DictionaryRequest, *, moderator, when, note: str) -> int:
    """Record the request's change as the lexicon's next version; return that version."""
    lexicon = Lexicon.objects.select_for_update().get(pk=request.lexicon_id)
    if request.action == Action.ADD and too_long_for(lexicon.code, request.word):
        raise Refused(f"{lexicon.name} holds no words of {len(request.word)} letters; reject the request instead.")
    present = request.word in get_lexicon(lexicon.code, lexicon.current_version)
    if present == (request.action == Action.ADD):
        raise Refused(
            f"“{request.word}” is {'already' if present else 'no longer'} in {lexicon.name}; "
            "reject the request instead."
        )
    version = _record_change(lexicon, request.word, request.action, moderator, when, request, note)
    for union, parts in UNION_PARTS.items():
        if lexicon.code in parts:
            _follow_union(union, parts, request, moderator, when)
    return version


def _record_change(lexicon: Lexicon, word: str, action: str, moderator, when, request, note: str) -> int:
    version = lexicon.current_version + 1
    WordChange.objects.create(
        lexicon=lexicon,
        version=version,
        word=word,
        action=action,
        decided_by=moderator,
        decided_at=when,
        request=request,
        note=note,
    )
    lexicon.current_version = version
    lexicon.save(update_fields=["current_version"])
    transaction.on_commit(lambda: _precompile_later(lexicon.code, version))
    return version


def _precompile_later(code: str, version: int) -> None:
    tasks.precompile_lexicon.delay(code, version)


def _follow_union(union_code: str, parts: tuple[str, ...], request, moderator, when) -> None:
    """Keep a union lexicon equal to the union of its parts after a part changed."""
    union = Lexicon.objects.select_for_update().filter(code=union_code).first()
    if union is None:
        return
    # Only committed versions are loaded (and so cached): the changed part's new
    # membership is known from the action, the other parts are read after the lock.
    wanted = request.action == Action.ADD or any(
        request.word in get_lexicon(code) for code in parts if code != request.lexicon.code
    )
    present = request.word in get_lexicon(union.code, union.current_version)
    if wanted != present:
        action = Action.ADD if wanted else Action.REMOVE
        _record_change(union, request.word, action, moderator, when, request, f"follows {request.lexicon.code}")


def _notify_decision(request: DictionaryRequest, version: int | None) -> None:
    """Tell the requester and every supporter how their request was decided.

    Everyone gets an in-site notification; those who opted in to email also get an
    email (sent by Celery after the decision commits).
    """
    lexicon = request.lexicon.name
    change = (
        f"add “{request.word}” to {lexicon}"
        if request.action == Action.ADD
        else f"remove “{request.word}” from {lexicon}"
    )
    if version is None:
        verdict, outcome = "was rejected", "was rejected"
        subject = f"Dictionary request rejected: {request.word}"
        effect = f"{lexicon} stays as it is."
    else:
        verdict, outcome = "was approved", f"was approved: {lexicon} version {version}"
        subject = f"Dictionary request approved: {request.word}"
        has = "has" if request.action == Action.ADD else "no longer has"
        effect = (
            f"{lexicon} version {version} {has} “{request.word}”; games that start "
            "from now on use it, games in progress keep their version."
        )
    note = f"Moderator's note: {request.moderator_note}" if request.moderator_note else ""
    url = reverse("lexicon:my_requests")
    whose = {
        request.requester: "Your request",
        **{supporter: "The request you supported" for supporter in request.supporters.all()},
    }
    for player, subject_of in whose.items():
        text = f"{subject_of} to {change} {outcome}."
        if note:
            text += f" {note}"
        body = "\n\n".join(
            part
            for part in (
                f"{subject_of} to {change} {verdict}.",
                effect,
                note,
                f"Your dictionary requests: {getattr(settings, 'SITE_URL', '')}{url}",
            )
            if part
        )
        notify(user=player, kind="dictionary", text=text, url=url, email_subject=subject, email_body=body + "\n")


def offensive_words_show(*, user, show: bool) -> None:
    """Record ``user``'s choice; saying the same twice changes nothing."""
    if show:
        OffensiveWordsShown.objects.get_or_create(user=user)
    else:
        OffensiveWordsShown.objects.filter(user=user).delete()
