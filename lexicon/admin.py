"""Moderation of dictionary requests, and read-only views of lexicons and their changes.

Decisions go through ``services.request_decide`` (row-locked, final, recorded), from
the bulk actions of the queue or the "Decide" page of one request.  Only staff with
the ``lexicon.moderate_dictionaryrequest`` permission see the actions.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from config.admin import ViewOnlyAdmin
from lexicon import frequency, services
from lexicon.models import DictionaryRequest, Lexicon, Status, WordChange


class DecisionForm(forms.Form):
    note = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Shown to the requester and supporters, and kept with the decision.",
    )


class StatusFilter(admin.SimpleListFilter):
    """Status filter that shows the open requests (the queue) unless told otherwise."""

    title = "status"
    parameter_name = "status__exact"  # the name the plain field filter used

    def lookups(self, request, model_admin):
        return [*Status.choices, ("all", "All")]

    def choices(self, changelist):
        chosen = self.value() or Status.OPEN
        for value, label in self.lookup_choices:
            yield {
                "selected": chosen == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request, queryset):
        chosen = self.value() or Status.OPEN
        if chosen == "all":
            return queryset
        if chosen not in Status.values:
            return queryset.none()
        return queryset.filter(status=chosen)


class QueueChangeList(ChangeList):
    """The queue's page of requests, with each word's current lexicons worked out at once."""

    def get_results(self, request):
        super().get_results(request)
        rows = list(Lexicon.objects.all())  # one query for the page, not one per row
        for obj in self.result_list:
            obj.lexicons_now = services.lexicons_containing(obj.word, rows)


@admin.register(DictionaryRequest)
class DictionaryRequestAdmin(admin.ModelAdmin):
    list_display = (
        "word",
        "action",
        "lexicon",
        "short_reason",
        "supporter_count",
        "frequency_band",
        "in_lexicons",
        "status",
        "requester",
        "created_at",
        "decide_link",
    )
    list_filter = (StatusFilter, "lexicon")
    search_fields = ("word", "requester__username")
    list_select_related = ("lexicon", "requester")
    actions = ("approve_selected", "reject_selected")
    readonly_fields = (
        "requester",
        "lexicon",
        "word",
        "action",
        "reason",
        "status",
        "supporter_list",
        "created_at",
        "moderator",
        "decided_at",
        "moderator_note",
    )
    fields = readonly_fields

    def get_changelist(self, request, **kwargs):
        return QueueChangeList

    def get_queryset(self, request):
        # Annotated before ordering, which sorts by the annotation.
        queryset = self.model._default_manager.annotate(supporter_count=Count("supporters"))
        return queryset.order_by(*self.get_ordering(request))

    def get_ordering(self, request):
        return ["-supporter_count", "created_at"]  # most wanted first, then oldest

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # decisions are made through the actions, never by editing rows

    def has_view_permission(self, request, obj=None):
        return services.can_moderate(request.user) or super().has_view_permission(request, obj)

    def has_moderate_permission(self, request):
        return services.can_moderate(request.user)

    @admin.display(description="supporters", ordering="supporter_count")
    def supporter_count(self, obj):
        return obj.supporter_count

    @admin.display(description="reason")
    def short_reason(self, obj):
        return obj.reason if len(obj.reason) <= 80 else obj.reason[:79] + "…"

    @admin.display(description="frequency")
    def frequency_band(self, obj):
        return frequency.band(obj.word)

    @admin.display(description="in lexicons now")
    def in_lexicons(self, obj):
        codes = getattr(obj, "lexicons_now", None)
        if codes is None:
            codes = services.lexicons_containing(obj.word)
        return ", ".join(codes) or "none"

    @admin.display(description="supporters")
    def supporter_list(self, obj):
        return ", ".join(str(u) for u in obj.supporters.all()) or "—"

    @admin.display(description="decision")
    def decide_link(self, obj):
        if obj.status != Status.OPEN:
            return ""
        url = reverse("admin:lexicon_dictionaryrequest_decide", args=[obj.pk])
        return format_html('<a href="{}">Decide</a>', url)

    # -- deciding ----------------------------------------------------------------

    def get_urls(self):
        decide = self.admin_site.admin_view(self.decide_view)
        return [path("<int:pk>/decide/", decide, name="lexicon_dictionaryrequest_decide"), *super().get_urls()]

    def decide_view(self, request, pk: int):
        """Approve or reject one request, with a note."""
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        obj = get_object_or_404(self.get_queryset(request), pk=pk)
        form = DecisionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            # A decision is final, so it needs one of the two buttons: a POST without
            # either (a stray Enter, a script) decides nothing.
            choice = [name for name in ("approve", "reject") if name in request.POST]
            if len(choice) == 1:
                self._decide(request, [obj.pk], choice == ["approve"], form.cleaned_data["note"])
                return HttpResponseRedirect(reverse("admin:lexicon_dictionaryrequest_changelist"))
            form.add_error(None, "Press Approve or Reject.")
        return self._decision_page(request, [obj], form, approve=None)

    @admin.action(description="Approve selected requests (with a note)", permissions=["moderate"])
    def approve_selected(self, request, queryset):
        return self._bulk(request, queryset, approve=True)

    @admin.action(description="Reject selected requests (with a note)", permissions=["moderate"])
    def reject_selected(self, request, queryset):
        return self._bulk(request, queryset, approve=False)

    def _bulk(self, request, queryset, *, approve: bool):
        form = DecisionForm(request.POST if "confirm" in request.POST else None)
        if form.is_bound and form.is_valid():
            ids = list(queryset.values_list("pk", flat=True))
            self._decide(request, ids, approve, form.cleaned_data["note"])
            return None
        return self._decision_page(request, list(queryset), form, approve=approve)

    def _decide(self, request, ids, approve: bool, note: str) -> None:
        decided, problems = services.requests_decide(
            request_ids=ids, moderator=request.user, approve=approve, note=note
        )
        if decided:
            verb = "Approved" if approve else "Rejected"
            self.message_user(request, f"{verb}: {', '.join(r.word for r in decided)}.", messages.SUCCESS)
        for problem in problems:
            self.message_user(request, problem, messages.ERROR)

    def _decision_page(self, request, requests, form, *, approve):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Decide dictionary requests",
            "requests": requests,
            # What the queue shows, again beside the note: who, how common, where it is now.
            "rows": [
                (
                    r,
                    ", ".join(str(u) for u in r.supporters.all()) or "—",
                    frequency.band(r.word),
                    ", ".join(services.lexicons_containing(r.word)) or "none",
                )
                for r in requests
            ],
            "form": form,
            "approve": approve,
            "action": ("approve_selected" if approve else "reject_selected") if approve is not None else "",
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/lexicon/dictionaryrequest/decide.html", context)


@admin.register(WordChange)
class WordChangeAdmin(ViewOnlyAdmin):
    list_display = ("lexicon", "version", "action", "word", "decided_by", "decided_at", "request", "note")
    list_filter = ("lexicon", "action")
    search_fields = ("word",)
    list_select_related = ("lexicon", "decided_by", "request")


@admin.register(Lexicon)
class LexiconAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "current_version", "accepts_requests", "position")
    readonly_fields = ("code", "current_version", "accepts_requests")
    fields = ("code", "name", "description", "current_version", "accepts_requests", "position")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
