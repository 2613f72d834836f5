"""Read-mostly admin for crossword games: moves are changed only through the services."""

from django.contrib import admin

from .models import Analysis, Bot, BotError, Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "accepted", "score", "place", "left")
    readonly_fields = fields
    can_delete = False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("number", "seat", "kind", "words", "score", "reason", "created_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "players", "move_count", "deadline", "created_at")
    list_filter = ("variant", "status")
    search_fields = ("seats__user__username",)
    readonly_fields = (
        "seed",
        "series",
        "game_number",
        "rematch_of",
        "lexicon_code",
        "lexicon_version",
        "move_count",
        "to_move",
        "deadline",
        "remind_at",
        "started_at",
        "finished_at",
        "end_reason",
    )
    inlines = [SeatInline, MoveInline]

    def has_add_permission(self, request):
        return False


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("user", "variant", "strength", "number")
    list_filter = ("variant", "strength")
    readonly_fields = ("user", "variant", "strength", "number")

    def has_add_permission(self, request):
        return False


@admin.register(BotError)
class BotErrorAdmin(admin.ModelAdmin):
    """Bot turns the engine failed on (the bot passed instead): for fixing the engine."""

    list_display = ("created_at", "game", "move_number", "seat", "strength", "rack")
    list_filter = ("strength",)
    readonly_fields = ("game", "move_number", "seat", "strength", "rack", "board", "error", "created_at")

    def has_add_permission(self, request):
        return False


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ("game", "created_at")
    readonly_fields = ("game", "moves", "summary", "created_at")

    def has_add_permission(self, request):
        return False
