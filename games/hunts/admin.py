from django.contrib import admin

from .models import FoundWord, HuntRound, HuntTable


class ViewOnly:
    """Rounds and finds change only through the hunt services: web processes judge
    submissions on facts they keep per round (board, minimum length, lexicon version), so an
    edit here would make processes disagree, and a find's points follow from the round."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(HuntTable)
class HuntTableAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "size", "lexicon_code", "seat_count", "host", "status", "created_at")
    list_filter = ("game", "status", "ranked")


@admin.register(HuntRound)
class HuntRoundAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("pk", "table", "number", "game", "status", "deadline")
    list_filter = ("game", "status")
    readonly_fields = ("missed_words",)


@admin.register(FoundWord)
class FoundWordAdmin(ViewOnly, admin.ModelAdmin):
    list_display = ("word", "user", "round", "points", "crossed_off", "found_at")
    search_fields = ("word",)
