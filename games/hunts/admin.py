from django.contrib import admin

from config.admin import ViewOnlyAdmin

from .models import FoundWord, HuntRound, HuntTable


@admin.register(HuntTable)
class HuntTableAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "size", "lexicon_code", "seat_count", "host", "status", "created_at")
    list_filter = ("game", "status", "ranked")


# Web processes judge submissions on facts they keep per round (board, minimum length,
# lexicon version), so an edit here would make them disagree.
@admin.register(HuntRound)
class HuntRoundAdmin(ViewOnlyAdmin):
    list_display = ("pk", "table", "number", "game", "status", "deadline")
    list_filter = ("game", "status")
    readonly_fields = ("missed_words",)


@admin.register(FoundWord)
class FoundWordAdmin(ViewOnlyAdmin):
    list_display = ("word", "user", "round", "points", "crossed_off", "found_at")
    search_fields = ("word",)
