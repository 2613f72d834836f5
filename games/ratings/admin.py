"""Admin views of ratings and rated results. Ratings change only through the services
(a result's update, ``manage.py ratings_rebuild``, or voiding a result here), never by
hand; the suspicious pairs page lists pairs worth a look."""

from django.contrib import admin, messages
from django.template.response import TemplateResponse
from django.urls import path

from config.admin import ViewOnlyAdmin
from config.errors import Refused

from . import selectors, services
from .models import PoolClock, RatedPlayer, RatedResult, Rating


@admin.register(Rating)
class RatingAdmin(ViewOnlyAdmin):
    list_display = ("user", "pool", "rating", "games", "wins", "mu", "sigma", "last_played_at")
    list_filter = ("pool",)
    search_fields = ("user__username",)
    ordering = ("pool", "-rating")
    list_select_related = ("user",)


class RatedPlayerInline(admin.TabularInline):
    model = RatedPlayer
    fields = ("user", "place", "score", "left", "rating_before", "rating_after")
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(RatedResult)
class RatedResultAdmin(ViewOnlyAdmin):
    list_display = ("pool", "seq", "kind", "object_id", "finished_at", "applied", "weight", "reason", "voided_at")
    list_filter = ("pool", "applied", "kind")
    search_fields = ("players__user__username",)
    ordering = ("-finished_at",)
    inlines = [RatedPlayerInline]
    actions = ["void"]

    def has_void_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_staff and request.user.has_perm("ratings.change_ratedresult")

    @admin.action(description="Void the selected results (their pools are replayed)", permissions=["void"])
    def void(self, request, queryset):
        voided = 0
        for result_id in queryset.order_by("pool", "seq").values_list("pk", flat=True):
            try:
                services.result_void(result_id=result_id, by=request.user)
            except Refused as refused:
                self.message_user(request, f"Result {result_id}: {refused.reason}", messages.WARNING)
            else:
                voided += 1
        self.message_user(request, f"{voided} result{'s' if voided != 1 else ''} voided; their pools were replayed.")

    def get_urls(self):
        page = path(
            "suspicious-pairs/",
            self.admin_site.admin_view(self.suspicious_pairs),
            name="ratings_ratedresult_suspicious_pairs",
        )
        return [page, *super().get_urls()]

    def suspicious_pairs(self, request):
        context = {
            **self.admin_site.each_context(request),
            "title": "Suspicious pairs",
            "pairs": selectors.suspicious_pairs(),
            "days": selectors.SUSPICIOUS_DAYS,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/ratings/suspicious_pairs.html", context)


@admin.register(PoolClock)
class PoolClockAdmin(ViewOnlyAdmin):
    list_display = ("pool", "recorded", "applied")
