"""Read-only admin views of ratings and rated results: ratings change only through the
services (a result's update, or ``manage.py ratings_rebuild``), never by hand here."""

from django.contrib import admin

from config.admin import ViewOnlyAdmin

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
    list_display = ("pool", "seq", "kind", "object_id", "finished_at", "applied", "applied_at")
    list_filter = ("pool", "applied", "kind")
    ordering = ("-finished_at",)
    inlines = [RatedPlayerInline]


@admin.register(PoolClock)
class PoolClockAdmin(ViewOnlyAdmin):
    list_display = ("pool", "recorded", "applied")
