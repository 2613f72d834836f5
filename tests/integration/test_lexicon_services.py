"""Lexicon versions, dictionary requests and moderators' decisions, against PostgreSQL."""

import threading

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models.signals import post_save

from accounts.models import Notification
from lexicon import services
from lexicon.models import DictionaryRequest, Lexicon, Status, WordChange
from tests.concurrency import run_threads, wait_for_a_blocked_session

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_lexicon_cache():
    """Each test starts from version 1 in a rolled-back database: forget loaded versions.

    Transactional tests flush the tables, so the rows are created again (idempotent).
    """
    services.forget_loaded()
    services.ensure_lexicons()
    yield
    services.forget_loaded()


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))
    return user


def ask(player, word="zorbing", action="add", code="common", reason="A sport."):
    return services.request_change(player=player, lexicon_code=code, word=word, action=action, reason=reason)


# -- loading ---------------------------------------------------------------------


def test_every_lexicon_loads_at_version_1():
    """The five lexicons exist after migrate, at version 1, with their shipped words."""
    assert [lexicon.code for lexicon in Lexicon.objects.all()] == ["en-gb", "en-us", "en", "common", "wordgame"]
    for code in ("en-gb", "en-us", "en", "common", "wordgame"):
        assert services.current_version(code) == 1
        assert "cat" in services.get_lexicon(code)
    assert "colour" in services.get_lexicon("en-gb") and "colour" not in services.get_lexicon("en-us")


def test_get_lexicon_is_cached_per_process():
    """The same (code, version) gives the same object without rebuilding."""
    assert services.get_lexicon("common", 1) is services.get_lexicon("common")


def test_unknown_code_and_version_are_refused():
    """An unknown code or a version that does not exist yet raises."""
    with pytest.raises(KeyError):
        services.get_lexicon("klingon")
    with pytest.raises(ValueError):
        services.get_lexicon("common", 2)
    with pytest.raises(ValueError):
        services.get_lexicon("common", 0)


# -- requests --------------------------------------------------------------------


@pytest.mark.parametrize(
    "word, action, code, reason, message",
    [
        ("zor bing", "add", "common", "x", "letters a to z"),
        ("zörbing", "add", "common", "x", "letters a to z"),
        ("x", "add", "common", "x", "2 to 15 letters"),
        ("abcdefghijklmnop", "add", "common", "x", "2 to 15 letters"),
        ("", "add", "common", "x", "Type a word"),
        ("cat", "add", "common", "x", "already in"),
        ("zorbing", "remove", "common", "x", "not in"),
        ("zorbing", "add", "common", "  ", "reason"),
        ("zorbing", "add", "en", "x", "en-gb or en-us"),
        ("zorbing", "add", "klingon", "x", "no lexicon"),
        ("zorbing", "delete", "common", "x", "add or remove"),
        ("zorbingtons", "add", "common", "x", "2 to 10 letters only"),
    ],
)
def test_invalid_requests_are_refused_and_nothing_is_stored(make_user, word, action, code, reason, message):
    """Every invalid request is refused with its reason and stores nothing."""
    with pytest.raises(services.Refused, match=message):
        ask(make_user(), word=word, action=action, code=code, reason=reason)
    assert DictionaryRequest.objects.count() == 0


def test_request_is_normalised_and_stored(make_user):
    """Case and surrounding spaces are forgiven; the request is open."""
    player = make_user()
    request, joined = ask(player, word="  Zorbing ")
    assert not joined and request.word == "zorbing" and request.status == Status.OPEN
    assert request.requester == player


def test_remove_request_for_a_present_word(make_user):
    """Removal may be asked only for a word the lexicon has."""
    request, _ = ask(make_user(), word="cat", action="remove")
    assert request.action == "remove"


def test_at_most_ten_open_requests(make_user):
    """The eleventh open request of one player is refused."""
    player = make_user()
    for n in range(10):
        ask(player, word="zorb" + "abcdefghij"[n] * 2)
    with pytest.raises(services.Refused, match="10 open requests"):
        ask(player, word="zorbing")
    assert DictionaryRequest.objects.filter(requester=player).count() == 10


def test_identical_request_joins_the_open_one(make_user):
    """A second player asking for the same change becomes a supporter, not a duplicate."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    first, joined_first = ask(ann)
    second, joined = ask(bob, word="ZORBING")
    third, _ = ask(cat)
    assert not joined_first and joined and second == first == third
    assert DictionaryRequest.objects.count() == 1
    assert set(first.supporters.all()) == {bob, cat}


def test_asking_twice_is_refused(make_user):
    """The requester or a supporter asking again is told they already did."""
    ann, bob = make_user("ann"), make_user("bob")
    ask(ann)
    ask(bob)
    with pytest.raises(services.Refused, match="already asked"):
        ask(ann)
    with pytest.raises(services.Refused, match="already support"):
        ask(bob)


def test_same_word_other_lexicon_is_a_separate_request(make_user):
    """Requests are per lexicon."""
    ann, bob = make_user("ann"), make_user("bob")
    a, _ = ask(ann, code="common")
    b, joined = ask(bob, code="wordgame")
    assert not joined and a != b


# -- decisions -------------------------------------------------------------------


def test_approval_bumps_version_and_games_keep_theirs(make_user, moderator):
    """A game started before an approval keeps its version; one started after sees the word."""
    before_version = services.current_version("common")
    request, _ = ask(make_user())
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True, note="Fine.")
    after_version = services.current_version("common")
    assert after_version == before_version + 1
    assert "zorbing" not in services.get_lexicon("common", before_version)
    assert "zorbing" in services.get_lexicon("common", after_version)
    assert "zorbing" in services.get_lexicon("common")
    change = WordChange.objects.get()
    assert (change.lexicon.code, change.version, change.word, change.action) == ("common", 2, "zorbing", "add")
    assert change.decided_by == moderator and change.request == request and change.note == "Fine."
    request.refresh_from_db()
    assert request.status == Status.APPROVED and request.moderator == moderator
    assert request.decided_at is not None and request.moderator_note == "Fine."


def test_precompile_task_reloads_the_version_it_is_given(make_user, moderator):
    """The worker's task replaces whatever it held under that number (an emptied database)."""
    from lexicon import core, loading, tasks

    request, _ = ask(make_user())
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    loading._loaded[("common", 2)] = core.Lexicon.from_words(["qxzstale"])
    tasks.precompile_lexicon("common", 2)
    assert "zorbing" in services.get_lexicon("common", 2)
    assert "qxzstale" not in services.get_lexicon("common", 2)


def test_forget_loaded_one_version(make_user):
    """forget_loaded(code, version) drops that entry only."""
    common, wordgame = services.get_lexicon("common", 1), services.get_lexicon("wordgame", 1)
    services.forget_loaded("common", 1)
    assert services.get_lexicon("common", 1) is not common
    assert services.get_lexicon("wordgame", 1) is wordgame


def test_long_words_go_to_other_lists_but_never_into_common(make_user, moderator):
    """An 11-letter word may be asked for in wordgame; an old request for common is refused."""
    request, _ = ask(make_user("ann"), word="zorbingtons", code="wordgame")
    assert request.lexicon.code == "wordgame"
    stale = DictionaryRequest.objects.create(
        requester=make_user("bob"),
        word="zorbingtons",
        action="add",
        reason="x",
        lexicon=Lexicon.objects.get(code="common"),
    )
    with pytest.raises(services.Refused, match="no words of 11 letters"):
        services.request_decide(request_id=stale.pk, moderator=moderator, approve=True)
    assert services.current_version("common") == 1
    stale.refresh_from_db()
    assert stale.status == Status.OPEN


def test_removal_takes_the_word_out_of_new_versions(make_user, moderator):
    """An approved removal leaves old versions untouched."""
    request, _ = ask(make_user(), word="cat", action="remove")
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    assert "cat" in services.get_lexicon("common", 1)
    assert "cat" not in services.get_lexicon("common")


def test_rejection_changes_nothing(make_user, moderator):
    """A rejected request makes no version."""
    request, _ = ask(make_user())
    services.request_decide(request_id=request.pk, moderator=moderator, approve=False, note="No.")
    assert services.current_version("common") == 1 and not WordChange.objects.exists()
    request.refresh_from_db()
    assert request.status == Status.REJECTED and request.moderator_note == "No."


def test_decisions_are_final(make_user, moderator):
    """A decided request cannot be decided again."""
    request, _ = ask(make_user())
    services.request_decide(request_id=request.pk, moderator=moderator, approve=False)
    with pytest.raises(services.Refused, match="already rejected"):
        services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    assert services.current_version("common") == 1


def test_only_moderators_decide(make_user):
    """Staff without the permission, and players, are refused."""
    request, _ = ask(make_user())
    for user in (make_user("staff", is_staff=True), make_user("player")):
        with pytest.raises(PermissionDenied):
            services.request_decide(request_id=request.pk, moderator=user, approve=True)
    request.refresh_from_db()
    assert request.status == Status.OPEN


def test_requester_and_supporters_are_notified(make_user, moderator):
    """Everyone who asked is told the decision and the note."""
    ann, bob = make_user("ann"), make_user("bob")
    request, _ = ask(ann)
    ask(bob)
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True, note="Welcome.")
    for player in (ann, bob):
        (notification,) = Notification.objects.filter(user=player, kind="dictionary")
        assert "zorbing" in notification.text and "approved" in notification.text
        assert "Welcome." in notification.text and notification.url == "/words/requests/"


def test_decision_emails_go_to_opted_in_requester_and_supporters(
    make_user, moderator, monkeypatch, django_capture_on_commit_callbacks
):
    """After the decision commits, an email is queued for each asker who opted in, and only them."""
    from accounts import tasks as account_tasks

    sent = []
    monkeypatch.setattr(
        account_tasks.send_email, "delay", lambda address, subject, body: sent.append((address, subject, body))
    )
    ann = make_user("ann", email="ann@example.com", email_notifications=True)
    bob = make_user("bob", email="bob@example.com", email_notifications=True)
    cy = make_user("cy", email="cy@example.com", email_notifications=False)
    request, _ = ask(ann, word="cat", action="remove")
    ask(bob, word="cat", action="remove")
    ask(cy, word="cat", action="remove")
    with django_capture_on_commit_callbacks(execute=True):
        services.request_decide(request_id=request.pk, moderator=moderator, approve=True, note="Too common to be fun.")
    assert sorted(address for address, _, _ in sent) == ["ann@example.com", "bob@example.com"]
    mails = {address: (subject, body) for address, subject, body in sent}
    subject, body = mails["ann@example.com"]
    assert subject == "Dictionary request approved: cat"
    assert body.startswith("Your request to remove “cat” from Common English was approved.")
    assert "version 2 no longer has “cat”" in body and "Too common to be fun." in body
    assert f"{settings.SITE_URL}/words/requests/" in body  # a full address, for a mail client
    assert mails["bob@example.com"][1].startswith("The request you supported to remove “cat”")
    # Everyone, opted in or not, is told in the site.
    assert Notification.objects.filter(kind="dictionary").count() == 3


def test_rejection_email_says_nothing_changed(make_user, moderator, monkeypatch, django_capture_on_commit_callbacks):
    """A rejected requester who opted in is emailed the rejection and the note."""
    from accounts import tasks as account_tasks

    sent = []
    monkeypatch.setattr(
        account_tasks.send_email, "delay", lambda address, subject, body: sent.append((address, subject, body))
    )
    ann = make_user("ann", email="ann@example.com", email_notifications=True)
    request, _ = ask(ann)
    with django_capture_on_commit_callbacks(execute=True):
        services.request_decide(
            request_id=request.pk, moderator=moderator, approve=False, note="Not in any dictionary yet."
        )
    ((address, subject, body),) = sent
    assert address == "ann@example.com" and subject == "Dictionary request rejected: zorbing"
    assert "was rejected" in body and "stays as it is" in body and "Not in any dictionary yet." in body


def test_no_email_is_queued_when_the_decision_rolls_back(
    make_user, moderator, monkeypatch, django_capture_on_commit_callbacks
):
    """A decision that fails after notifying sends no email and stores nothing.

    The failure comes after the notifications were made, so an email sent before the
    commit (instead of queued for it) would be caught here.
    """
    from accounts import tasks as account_tasks

    sent = []
    monkeypatch.setattr(account_tasks.send_email, "delay", lambda *args: sent.append(args))
    request, _ = ask(make_user("ann", email="ann@example.com", email_notifications=True))
    notify_decision = services._notify_decision

    def notify_then_fail(*args, **kwargs):
        notify_decision(*args, **kwargs)
        assert Notification.objects.filter(kind="dictionary").exists(), "the requester was notified"
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "_notify_decision", notify_then_fail)
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError):
            services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    assert sent == [] and not Notification.objects.exists()
    request.refresh_from_db()
    assert request.status == Status.OPEN and services.current_version("common") == 1


def test_decided_request_can_be_asked_again(make_user, moderator):
    """After a rejection, a new request for the same change opens a new row."""
    request, _ = ask(make_user("ann"))
    services.request_decide(request_id=request.pk, moderator=moderator, approve=False)
    again, joined = ask(make_user("bob"))
    assert not joined and again.pk != request.pk


def test_bulk_decision_reports_each_problem(make_user, moderator):
    """Bulk decisions decide what they can and name what they could not."""
    a, _ = ask(make_user("ann"), word="zorbing")
    b, _ = ask(make_user("bob"), word="zumbas")
    services.request_decide(request_id=b.pk, moderator=moderator, approve=False)
    decided, problems = services.requests_decide(request_ids=[a.pk, b.pk], moderator=moderator, approve=True, note="")
    assert [r.pk for r in decided] == [a.pk] and len(problems) == 1 and f"#{b.pk}" in problems[0]
    assert services.current_version("common") == 2


def test_union_follows_its_parts(make_user, moderator):
    """en stays the union of en-gb and en-us when either changes."""
    request, _ = ask(make_user("ann"), word="zorbing", code="en-gb")
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    assert services.current_version("en-gb") == 2 and services.current_version("en") == 2
    assert "zorbing" in services.get_lexicon("en") and "zorbing" not in services.get_lexicon("en-us")
    # removing an American-only spelling from en-us takes it out of en as well
    request, _ = ask(make_user("bob"), word="color", action="remove", code="en-us")
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    assert "color" not in services.get_lexicon("en")
    # removing "cat" from en-gb alone keeps it in en (en-us still has it)
    request, _ = ask(make_user("cy"), word="cat", action="remove", code="en-gb")
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    assert "cat" in services.get_lexicon("en") and "cat" not in services.get_lexicon("en-gb")
    assert services.current_version("en") == 3 and services.current_version("en-gb") == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("second_approves", [True, False])
def test_two_moderators_deciding_at_once_make_one_decision(make_user, moderator, monkeypatch, second_approves):
    """A second decision made while the first is still in flight waits for it, then is refused.

    The first moderator's transaction is held open after it decided until the second
    moderator's transaction is seen waiting on the database lock, so the two really
    overlap: exactly one decision, one lexicon change and one notification result.
    """
    other = make_user("mod2", is_staff=True)
    other.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))
    request, _ = ask(make_user("ann"))
    services.get_lexicon("common")
    first_decided = threading.Event()
    second_was_blocked = []
    outcomes = {}
    notify_decision = services._notify_decision

    def notify_then_hold(decided, version):
        notify_decision(decided, version)
        if not first_decided.is_set():
            first_decided.set()
            second_was_blocked.append(wait_for_a_blocked_session())

    monkeypatch.setattr(services, "_notify_decision", notify_then_hold)

    def decide(name, user, approve, wait=None):
        try:
            if wait is not None:
                assert wait.wait(10)
            services.request_decide(request_id=request.pk, moderator=user, approve=approve, note=name)
            outcomes[name] = "decided"
        except services.Refused as refusal:
            outcomes[name] = str(refusal)
        finally:
            connection.close()

    run_threads(
        lambda: decide("first", moderator, True), lambda: decide("second", other, second_approves, wait=first_decided)
    )
    assert second_was_blocked == [True]
    assert outcomes["first"] == "decided"
    assert "already approved by mod" in outcomes["second"]
    request.refresh_from_db()
    assert (request.status, request.moderator, request.moderator_note) == ("approved", moderator, "first")
    assert WordChange.objects.count() == 1
    assert services.current_version("common") == 2
    assert Notification.objects.filter(kind="dictionary").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_approvals_in_one_lexicon_at_once_make_consecutive_versions(make_user, moderator, monkeypatch):
    """Two different requests approved together become versions 2 and 3, the last with both."""
    zorbing, _ = ask(make_user("ann"), word="zorbing")
    zumbas, _ = ask(make_user("bob"), word="zumbas")
    services.get_lexicon("common")
    first_decided = threading.Event()
    second_was_blocked = []
    notify_decision = services._notify_decision

    def notify_then_hold(decided, version):
        notify_decision(decided, version)
        if not first_decided.is_set():
            first_decided.set()
            second_was_blocked.append(wait_for_a_blocked_session())

    monkeypatch.setattr(services, "_notify_decision", notify_then_hold)

    def approve(request, wait=None):
        try:
            if wait is not None:
                assert wait.wait(10)
            services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
        finally:
            connection.close()

    run_threads(lambda: approve(zorbing), lambda: approve(zumbas, wait=first_decided))
    assert second_was_blocked == [True]
    assert list(WordChange.objects.order_by("version").values_list("version", "word")) == [
        (2, "zorbing"),
        (3, "zumbas"),
    ]
    services.forget_loaded()
    assert "zorbing" in services.get_lexicon("common", 3) and "zumbas" in services.get_lexicon("common", 3)
    assert "zumbas" not in services.get_lexicon("common", 2)


@pytest.mark.django_db(transaction=True)
def test_asking_while_the_same_request_is_approved_is_refused(make_user, moderator, monkeypatch):
    """A player asking to add a word while its open request is being approved waits for the
    decision and is told the word is now in, instead of opening a second request."""
    request, _ = ask(make_user("ann"))
    services.get_lexicon("common")
    approved = threading.Event()
    asker_was_blocked = []
    outcome = {}
    notify_decision = services._notify_decision

    def notify_then_hold(decided, version):
        notify_decision(decided, version)
        approved.set()
        asker_was_blocked.append(wait_for_a_blocked_session())

    monkeypatch.setattr(services, "_notify_decision", notify_then_hold)

    def approve():
        try:
            services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
        finally:
            connection.close()

    def ask_too():
        try:
            assert approved.wait(10)
            ask(make_user("bob"))
            outcome["bob"] = "asked"
        except services.Refused as refusal:
            outcome["bob"] = str(refusal)
        finally:
            connection.close()

    run_threads(approve, ask_too)
    assert asker_was_blocked == [True]
    assert "already in Common English" in outcome["bob"]
    assert DictionaryRequest.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_players_asking_at_once_share_one_request(make_user, monkeypatch):
    """Two identical requests in flight together end as one request with one supporter.

    The first player's new request stays uncommitted until the second player's insert is
    seen waiting on it; the second then joins the first instead of failing.
    """
    ann, bob = make_user("ann"), make_user("bob")
    services.get_lexicon("common")
    first_created = threading.Event()
    second_was_blocked = []
    results = {}

    def hold_first_open(sender, instance, created, **kwargs):
        if created and instance.requester_id == ann.pk:
            first_created.set()
            second_was_blocked.append(wait_for_a_blocked_session())

    post_save.connect(hold_first_open, sender=DictionaryRequest)
    try:

        def request_it(player, wait=None):
            try:
                if wait is not None:
                    assert wait.wait(10)
                results[player.username] = ask(player)
            finally:
                connection.close()

        run_threads(lambda: request_it(ann), lambda: request_it(bob, wait=first_created))
    finally:
        post_save.disconnect(hold_first_open, sender=DictionaryRequest)
    assert second_was_blocked == [True]
    assert results["ann"][1] is False and results["bob"][1] is True
    (request,) = DictionaryRequest.objects.all()
    assert request.requester == ann and list(request.supporters.all()) == [bob]
