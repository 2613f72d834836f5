"""Word check, dictionary requests and the public changes log: thin views over services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from lexicon import definitions, frequency, services
from lexicon.forms import RequestForm, WordForm
from lexicon.models import Lexicon, WordChange

CHANGES_PER_PAGE = 100


def check(request):
    """Type a word, see whether each lexicon has it and how common it is."""
    form = WordForm(request.GET or None)
    word = services.normalise_word(request.GET.get("word", ""))
    context = {"form": form, "word": word, **_check_results(word)}
    if request.htmx:
        return render(request, "lexicon/check.html#results", context)
    return render(request, "lexicon/check.html", context)


def _check_results(word: str) -> dict:
    if not word:
        return {"problem": None, "presence": [], "band": None}
    problem = services.word_problem(word)
    plain = services.without_accents(word) if problem else None
    if plain and not services.word_problem(plain):
        # The lists hold "cafe", not "café": check that, and say so.
        return {**_check_results(plain), "word": plain, "typed": word}
    if problem:
        return {"problem": problem, "presence": [], "band": None}
    presence = services.word_presence(word)
    return {
        "problem": None,
        "presence": presence,
        "present_count": sum(p.present for p in presence),
        "absent_names": [p.lexicon.name for p in presence if not p.present],
        "band": frequency.band(word),
        "zipf": frequency.zipf(word),
        "entry": definitions.define(word),
    }


@require_GET
@cache_control(public=True, max_age=86400)
def define(request):
    """A word's senses (WordNet), as a fragment: asked for on demand by a hunt's results."""
    word = services.normalise_word(request.GET.get("word", ""))
    entry = definitions.define(word) if word and not services.word_problem(word) else None
    return render(request, "lexicon/_definition.html", {"word": word, "entry": entry})


@login_required
def request_change(request):
    """Ask for a word to be added or removed; a duplicate of an open request joins it."""
    done = None
    if request.method == "POST":
        form = RequestForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                created, joined = services.request_change(
                    player=request.user,
                    lexicon_code=data["lexicon"].code,
                    word=data["word"],
                    action=data["action"],
                    reason=data["reason"],
                )
            except services.Refused as refusal:
                form.add_error(None, str(refusal))
            else:
                done = created
                text = (
                    f"You now support the open request to {created.action} “{created.word}”."
                    if joined
                    else f"Your request to {created.action} “{created.word}” is waiting for a moderator."
                )
                if not request.htmx:
                    messages.success(request, text)
                    return redirect("lexicon:my_requests")
                done = {"request": created, "text": text}
    else:
        initial = {key: request.GET[key] for key in ("word", "action", "lexicon") if key in request.GET}
        form = RequestForm(initial=initial)
    context = {"form": form, "done": done, "heading": _request_heading(form)}
    if request.htmx:
        return render(request, "lexicon/request.html#panel", context)
    return render(request, "lexicon/request.html", context)


def _request_heading(form: RequestForm) -> str | None:
    """Name the change the form asks for ("Ask to add “qi” to Common English"), if known."""
    values = form.data if form.is_bound else form.initial
    word = services.normalise_word(str(values.get("word", "")))
    action = values.get("action")
    lexicon = Lexicon.objects.filter(
        code=str(values.get("lexicon", "")).replace("\x00", ""), accepts_requests=True
    ).first()
    if services.word_problem(word) or action not in ("add", "remove") or lexicon is None:
        return None
    return f"Ask to {action} “{word}” {'to' if action == 'add' else 'from'} {lexicon.name}"


@login_required
def my_requests(request):
    """The player's requests, and the ones they support, with statuses and notes."""
    own = request.user.dictionary_requests.select_related("lexicon", "moderator").prefetch_related("supporters")
    supported = request.user.supported_dictionary_requests.select_related("lexicon", "requester")
    return render(request, "lexicon/my_requests.html", {"own": own, "supported": supported})


def changes(request):
    """Public log of approved changes, by lexicon and version."""
    lexicons = list(Lexicon.objects.all())
    chosen = request.GET.get("lexicon", "")
    if chosen not in {lexicon.code for lexicon in lexicons}:
        chosen = ""  # an unknown code (or junk such as a NUL byte) shows every change
    rows = WordChange.objects.select_related("lexicon", "decided_by").order_by("-decided_at", "-pk")
    if chosen:
        rows = rows.filter(lexicon__code=chosen)
    page = Paginator(rows, CHANGES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "lexicon/changes.html",
        {"lexicons": lexicons, "chosen": chosen, "rows": page.object_list, "page": page},
    )
