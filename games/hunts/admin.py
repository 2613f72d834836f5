from django.contrib import admin

from .models import FoundWord, HuntRound, HuntTable


@admin.register(HuntTable)
class HuntTableAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "size", "lexicon_code", "seat_count", "host", "status", "created_at")
    list_filter = ("game", "status", "ranked")


@admin.register(HuntRound)
class HuntRoundAdmin(admin.ModelAdmin):
    list_display = ("pk", "table", "number", "game", "status", "deadline")
    list_filter = ("game", "status")
    readonly_fields = ("missed_words",)


@admin.register(FoundWord)
class FoundWordAdmin(admin.ModelAdmin):
    list_display = ("word", "user", "round", "points", "crossed_off", "found_at")
    search_fields = ("word",)
