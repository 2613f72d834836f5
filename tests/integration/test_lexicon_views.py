"""Word check page, requests, my requests, the changes log and admin moderation."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Notification
from lexicon import services
from lexicon.models import DictionaryRequest, Status, WordChange

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fresh_lexicon_cache():
    services.forget_loaded()
    services.ensure_lexicons()
    yield
    services.forget_loaded()


@pytest.fixture
def player(client, make_user):
    user = make_user("ann")
    client.force_login(user)
    return user


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="moderate_dictionaryrequest"))
    return user


def test_check_page_shows_each_lexicon(client):
    """The page lists every lexicon with yes/no and the frequency band."""
    page = client.get("/words/?word=Colour").content.decode()
    assert 'data-lexicon="en-gb" data-present="yes"' in page
    assert 'data-lexicon="en-us" data-present="no"' in page
    assert 'data-lexicon="en" data-present="yes"' in page
    assert "common" in page and "<html" in page


def test_check_partial_for_htmx(client):
    """An htmx request gets only the results fragment."""
    response = client.get("/words/?word=cat", **HTMX)
    html = response.content.decode()
    assert "<html" not in html and 'data-word-check="cat"' in html and "data-band" in html


def test_check_summary_for_screen_readers(client):
    """One sentence in a polite status region sums up the result; htmx updates it in place."""
    page = client.get("/words/?word=colour").content.decode()
    assert 'id="word-summary" class="lexicon-sr-only" role="status" aria-live="polite"' in page
    summary = "“colour” is in 4 of 5 word lists; not in American English. Common in everyday English."
    assert summary in page
    fragment = client.get("/words/?word=colour", **HTMX).content.decode()
    assert f'<div hx-swap-oob="innerHTML:#word-summary">{summary}</div>' in fragment
    problem = client.get("/words/?word=ab1", **HTMX).content.decode()
    assert '<div hx-swap-oob="innerHTML:#word-summary">Use the letters a to z' in problem
    # The table of results itself is not a live region (it would be read out in full).
    assert 'id="word-results" aria-live' not in page


def test_check_links_name_the_word_and_list(client, player):
    """Each "Ask to ..." link says which word and which list, for screen readers."""
    html = client.get("/words/?word=colour").content.decode()
    assert 'Ask to add<span class="lexicon-sr-only"> “colour” to American English</span>' in html
    assert 'Ask to remove<span class="lexicon-sr-only"> “colour” from British English</span>' in html
    assert '<th scope="col">Ask a moderator</th>' in html


def test_check_takes_accents_off(client):
    """ "Café" is checked as "cafe", as the lists store it, and the page says so."""
    page = client.get("/words/?word=Caf%C3%A9").content.decode()
    assert 'data-word-check="cafe"' in page and "data-without-accents" in page
    assert "“café” is checked as “cafe”" in page and 'value="café"' in page
    fragment = client.get("/words/?word=na%C3%AFve", **HTMX).content.decode()
    assert 'data-word-check="naive"' in fragment
    assert "Word lists hold words without accents. “naive” is in" in fragment
    # Accents off, still not a word shape: the usual explanation.
    assert "letters a to z" in client.get("/words/?word=%C3%A9t%C3%A9-x", **HTMX).content.decode()


def test_check_explains_bad_words(client):
    """Typing something that cannot be a word says why."""
    html = client.get("/words/?word=ab1", **HTMX).content.decode()
    assert "data-word-problem" in html and "letters a to z" in html


def test_a_definition_is_a_fragment_kept_a_day_for_anyone(client):
    """A hunt's results ask for a word's senses on demand: an inflected form is defined by
    its base, a word WordNet lacks says so, and nothing typed gives an empty fragment."""
    response = client.get("/words/define/?word=Geese")
    assert response.status_code == 200
    assert {"public", "max-age=86400"} <= {part.strip() for part in response["Cache-Control"].split(",")}
    html = response.content.decode()
    assert 'data-definition="geese"' in html and "a form of <em>goose</em>" in html
    assert "<li>" in html and "WordNet 3.0" in html
    missing = client.get("/words/define/?word=xyzzyq").content.decode()
    assert "data-no-definition" in missing and "<li>" not in missing
    for typed in ("", "ab1"):
        html = client.get(f"/words/define/?word={typed}").content.decode()
        assert "<li>" not in html and ("data-no-definition" in html) == bool(typed)


def test_anonymous_sees_no_request_links(client):
    """Only signed-in players are offered to ask for a change."""
    html = client.get("/words/?word=zorbing").content.decode()
    assert "Ask to add" not in html and "Log in" in html


def test_signed_in_player_is_offered_the_right_action(client, player):
    """Absent words can be asked to be added, present ones removed; en takes none."""
    html = client.get("/words/?word=colour").content.decode()
    assert "lexicon=en-us&amp;action=add" in html and "lexicon=en-gb&amp;action=remove" in html
    assert "lexicon=en&amp;" not in html


def test_no_add_link_for_a_word_too_long_for_common(client, player):
    """Common English says it holds 2 to 10 letters instead of offering to add a longer word."""
    html = client.get("/words/?word=zorbingtons").content.decode()
    common = html[html.index('data-lexicon="common"') :]
    common = common[: common.index("</tr>")]
    assert "Ask to" not in common and "words of 2 to 10 letters only" in common
    assert "lexicon=wordgame&amp;action=add" in html
    assert "follows en-gb and en-us" in html


def test_request_form_prefilled(client, player):
    """The htmx request panel comes pre-filled from the link."""
    html = client.get("/words/request/?word=zorbing&lexicon=common&action=add", **HTMX).content.decode()
    assert "data-request-panel" in html and 'value="zorbing"' in html and "<html" not in html


def test_request_panel_names_the_change_and_focuses_the_reason(client, player):
    """The panel's heading says what is asked; the reason box takes the focus."""
    html = client.get("/words/request/?word=Colour&lexicon=en-us&action=add", **HTMX).content.decode()
    assert '<h2 id="request-heading">Ask to add “colour” to American English</h2>' in html
    assert 'aria-labelledby="request-heading"' in html
    assert re.search(r'<textarea[^>]*autofocus[^>]*id="id_reason"|<textarea[^>]*id="id_reason"[^>]*autofocus', html)
    junk = client.get("/words/request/?word=a%00&lexicon=en&action=zap", **HTMX).content.decode()
    assert '<h2 id="request-heading">Ask for a change</h2>' in junk


def test_request_form_fields_are_labelled_and_described(client, player):
    """The add/remove choice is a fieldset with a legend; every aria-describedby target exists."""
    html = client.post(
        "/words/request/", {"lexicon": "common", "word": "", "action": "x", "reason": ""}, **HTMX
    ).content.decode()
    assert "<legend>Change</legend>" in html and 'for=""' not in html
    targets = {t for ids in re.findall(r'aria-describedby="([^"]+)"', html) for t in ids.split()}
    assert {"id_reason_helptext", "id_reason_error", "id_word_error"} <= targets
    for target in targets:
        assert f'id="{target}"' in html, target


def test_request_post_creates_and_redirects(client, player):
    """A valid request is stored; without htmx the player lands on My requests."""
    response = client.post(
        "/words/request/", {"lexicon": "common", "word": "zorbing", "action": "add", "reason": "A sport."}
    )
    assert response.status_code == 302 and response["Location"] == "/words/requests/"
    request = DictionaryRequest.objects.get()
    assert request.requester == player and request.word == "zorbing"
    page = client.get("/words/requests/").content.decode()
    assert "zorbing" in page and 'data-status="open"' in page


def test_request_post_htmx_refusal_shows_reason(client, player):
    """A refused request shows the reason in the panel and stores nothing."""
    html = client.post(
        "/words/request/", {"lexicon": "common", "word": "cat", "action": "add", "reason": "x"}, **HTMX
    ).content.decode()
    assert "already in" in html and "data-request-panel" in html
    assert not DictionaryRequest.objects.exists()


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"lexicon": "en", "word": "zorbing", "action": "add", "reason": "x"}, "takes no requests"),
        ({"lexicon": "klingon", "word": "zorbing", "action": "add", "reason": "x"}, "Choose British English"),
        ({"lexicon": "common", "word": "a" * 41, "action": "add", "reason": "x"}, "2 to 15 letters"),
        ({"lexicon": "common", "word": "zorb\x00", "action": "add", "reason": "x"}, "Null characters"),
        ({"lexicon": "common", "word": "zorbing", "action": "add", "reason": "x" * 501}, "at most 500"),
        ({"lexicon": "common", "word": "zorbing", "action": "zap", "reason": "x"}, "Select a valid choice"),
        ({"lexicon": "common", "word": "zorbing", "action": "add", "reason": "   "}, "required"),
    ],
)
def test_request_post_bad_input_is_refused_with_a_reason(client, player, data, reason):
    """Every malformed request is refused, saying why, and nothing is stored."""
    response = client.post("/words/request/", data, **HTMX)
    assert response.status_code == 200 and reason in response.content.decode()
    assert not DictionaryRequest.objects.exists()


def test_request_post_htmx_join(client, player, make_user):
    """Asking for an open change says the player now supports it."""
    services.request_change(
        player=make_user("bob"), lexicon_code="common", word="zorbing", action="add", reason="A sport."
    )
    html = client.post(
        "/words/request/", {"lexicon": "common", "word": "zorbing", "action": "add", "reason": "Me too."}, **HTMX
    ).content.decode()
    assert "data-request-done" in html and "support" in html


def test_request_needs_login(client):
    """Anonymous visitors are sent to log in."""
    response = client.post("/words/request/", {"lexicon": "common", "word": "zorbing", "action": "add", "reason": "x"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not DictionaryRequest.objects.exists()


def test_changes_log_lists_approved_changes(client, make_user, moderator):
    """The public log shows each approved change with its lexicon and version."""
    request, _ = services.request_change(
        player=make_user("bob"), lexicon_code="common", word="zorbing", action="add", reason="x"
    )
    services.request_decide(request_id=request.pk, moderator=moderator, approve=True)
    html = client.get("/words/changes/").content.decode()
    assert 'data-change="common-2"' in html and "zorbing" in html
    assert "zorbing" not in client.get("/words/changes/?lexicon=en-gb").content.decode()


def test_changes_log_is_paged(client, moderator):
    """A long log comes 100 changes a page, newest first, with links between pages."""
    from django.utils import timezone

    from lexicon.models import Lexicon

    common = Lexicon.objects.get(code="common")
    now = timezone.now()
    WordChange.objects.bulk_create(
        WordChange(
            lexicon=common,
            version=v,
            word="zorb" + "".join("abcdefghij"[int(d)] for d in f"{v:03d}"),
            action="add",
            decided_by=moderator,
            decided_at=now + timezone.timedelta(seconds=v),
        )
        for v in range(2, 103)
    )
    first = client.get("/words/changes/?lexicon=common").content.decode()
    assert first.count("data-change=") == 100 and 'data-change="common-102"' in first
    assert 'data-change="common-2"' not in first and "Page 1 of 2" in first
    assert 'href="?lexicon=common&amp;page=2"' in first
    second = client.get("/words/changes/?lexicon=common&page=2").content.decode()
    assert second.count("data-change=") == 1 and 'data-change="common-2"' in second
    assert client.get("/words/changes/?page=zzz").status_code == 200


@pytest.mark.parametrize("junk", ["%00", "klingon", "%3Cscript%3E"])
def test_changes_log_ignores_an_unknown_lexicon(client, junk):
    """An unknown or malformed lexicon filter shows the whole log instead of failing."""
    response = client.get(f"/words/changes/?lexicon={junk}")
    assert response.status_code == 200 and "Dictionary changes" in response.content.decode()


# -- admin -----------------------------------------------------------------------


def breadcrumbs(html: str) -> str:
    """The text of an admin page's breadcrumbs, its whitespace collapsed."""
    crumbs = html[html.index('<div class="breadcrumbs">') :]
    return " ".join(crumbs[len('<div class="breadcrumbs">') : crumbs.index("</div>")].split())


def open_request(make_user, word="zorbing"):
    request, _ = services.request_change(
        player=make_user(), lexicon_code="common", word=word, action="add", reason="A sport."
    )
    return request


def test_queue_shows_moderation_columns(client, make_user, moderator):
    """The queue shows supporters, frequency band and which lexicons have the word."""
    open_request(make_user)
    client.force_login(moderator)
    html = client.get("/admin/lexicon/dictionaryrequest/?status__exact=open").content.decode()
    assert "zorbing" in html and "rare" in html and "Approve selected" in html


def test_queue_page_queries_do_not_grow_with_its_rows(client, make_user, moderator, django_assert_max_num_queries):
    """Listing 30 requests costs no more queries than listing 3 (no query per row)."""
    client.force_login(moderator)
    url = "/admin/lexicon/dictionaryrequest/"
    for n in range(3):
        open_request(make_user, "zorb" + "abc"[n] * 2)
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for word in ["zumb" + a + b for a in "abc" for b in "abcdefghi"]:
        open_request(make_user, word)
    with django_assert_max_num_queries(len(few)):
        html = client.get(url).content.decode()
    assert html.count('class="action-checkbox"') == 30
    assert '<td class="field-in_lexicons">none</td>' in html


def test_queue_shows_open_requests_unless_asked(client, make_user, moderator):
    """The queue opens on the open requests; the status filter shows decided ones or all."""
    decided = open_request(make_user, "zumbas")
    services.request_decide(request_id=decided.pk, moderator=moderator, approve=False)
    open_request(make_user, "zorbing")
    client.force_login(moderator)
    url = "/admin/lexicon/dictionaryrequest/"

    def words(query=""):
        html = client.get(url + query).content.decode()
        return {w for w in ("zorbing", "zumbas") if f">{w}</a>" in html}

    assert words() == {"zorbing"}
    assert words("?status__exact=open") == {"zorbing"}
    assert words("?status__exact=rejected") == {"zumbas"}
    assert words("?status__exact=all") == {"zorbing", "zumbas"}
    assert words("?status__exact=bogus") == set()


def test_bulk_approve_with_note(client, make_user, moderator):
    """Approving selected requests asks for a note, then decides each one."""
    a, b = open_request(make_user, "zorbing"), open_request(make_user, "zumbas")
    client.force_login(moderator)
    url = "/admin/lexicon/dictionaryrequest/"
    page = client.post(url, {"action": "approve_selected", "_selected_action": [a.pk, b.pk]})
    assert page.status_code == 200 and b"Note" in page.content
    done = client.post(
        url, {"action": "approve_selected", "_selected_action": [a.pk, b.pk], "confirm": "1", "note": "Both fine."}
    )
    assert done.status_code == 302
    assert set(DictionaryRequest.objects.values_list("status", flat=True)) == {Status.APPROVED}
    assert WordChange.objects.count() == 2 and services.current_version("common") == 3
    assert Notification.objects.filter(kind="dictionary", text__contains="Both fine.").count() == 2


def test_single_decision_page(client, make_user, moderator):
    """One request can be rejected from its Decide page, with a note."""
    request = open_request(make_user)
    client.force_login(moderator)
    url = f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/"
    page = client.get(url)
    assert page.status_code == 200
    crumbs = breadcrumbs(page.content.decode())
    assert '<a href="/admin/lexicon/dictionaryrequest/">Dictionary requests</a>' in crumbs
    assert crumbs.endswith("› Decide")
    assert client.post(url, {"reject": "Reject", "note": "Not a word."}).status_code == 302
    request.refresh_from_db()
    assert request.status == Status.REJECTED and request.moderator_note == "Not a word."


def test_decide_page_shows_supporters_frequency_and_lexicons(client, make_user, moderator):
    """Beside the note, the moderator sees who asked, how common the word is and where it is."""
    request, _ = services.request_change(
        player=make_user("ann"), lexicon_code="en-us", word="colour", action="add", reason="Both spellings."
    )
    services.request_change(
        player=make_user("bob"), lexicon_code="en-us", word="colour", action="add", reason="Me too."
    )
    client.force_login(moderator)
    html = client.get(f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/").content.decode()
    row = html[html.index(f'<tr data-request="{request.pk}">') :]
    row = row[: row.index("</tr>")]
    assert "<td>bob</td>" in row and "<td>common</td>" in row
    assert "<td>en-gb, en, common, wordgame</td>" in row


def test_decide_page_needs_a_button(client, make_user, moderator):
    """A POST with neither Approve nor Reject (or both) decides nothing and says why."""
    request = open_request(make_user)
    client.force_login(moderator)
    url = f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/"
    for data in ({"note": "Hmm."}, {"approve": "1", "reject": "1", "note": "Hmm."}):
        page = client.post(url, data)
        assert page.status_code == 200 and "Press Approve or Reject." in page.content.decode()
    request.refresh_from_db()
    assert request.status == Status.OPEN and not WordChange.objects.exists()


def test_decide_page_of_a_decided_request_refuses_again(client, make_user, moderator):
    """Deciding an already decided request from its page changes nothing and says so."""
    request = open_request(make_user)
    services.request_decide(request_id=request.pk, moderator=moderator, approve=False, note="No.")
    client.force_login(moderator)
    url = f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/"
    response = client.post(url, {"approve": "Approve", "note": "Yes."}, follow=True)
    assert "already rejected" in response.content.decode()
    request.refresh_from_db()
    assert request.status == Status.REJECTED and request.moderator_note == "No."
    assert not WordChange.objects.exists()


def test_decide_page_of_a_missing_request_is_404(client, moderator):
    """An unknown request number is not found."""
    client.force_login(moderator)
    assert client.get("/admin/lexicon/dictionaryrequest/999999/decide/").status_code == 404


def test_non_staff_cannot_moderate(client, make_user, player):
    """A signed-in player gets no admin and no decision."""
    request = open_request(make_user)
    assert client.get("/admin/lexicon/dictionaryrequest/").status_code == 302
    client.post(f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/", {"approve": "1"})
    client.post(
        "/admin/lexicon/dictionaryrequest/",
        {"action": "approve_selected", "_selected_action": [request.pk], "confirm": "1"},
    )
    request.refresh_from_db()
    assert request.status == Status.OPEN


def test_staff_without_permission_cannot_decide(client, make_user):
    """Staff lacking the moderation permission are refused."""
    request = open_request(make_user)
    client.force_login(make_user("staff", is_staff=True))
    assert client.get(f"/admin/lexicon/dictionaryrequest/{request.pk}/decide/").status_code == 403
    client.post(
        "/admin/lexicon/dictionaryrequest/",
        {"action": "approve_selected", "_selected_action": [request.pk], "confirm": "1"},
    )
    request.refresh_from_db()
    assert request.status == Status.OPEN
