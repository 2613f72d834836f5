"""Read-only admin views of ratings and rated results: ratings change only through the
services (a result's update, or ``manage.py ratings_rebuild``), never by hand here."""

from django.contrib import admin

from .models import PoolClock, RatedPlayer, RatedResult, Rating


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
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
class RatedResultAdmin(ReadOnly):
    list_display = ("pool", "seq", "kind", "object_id", "finished_at", "applied", "applied_at")
    list_filter = ("pool", "applied", "kind")
    ordering = ("-finished_at",)
    inlines = [RatedPlayerInline]


@admin.register(PoolClock)
class PoolClockAdmin(ReadOnly):
    list_display = ("pool", "recorded", "applied")
