"""Read-mostly admin for crossword games: moves are changed only through the services."""

from django.contrib import admin

from .models import Game, Move, Seat


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
    readonly_fields = ("seed", "series", "game_number", "rematch_of", "lexicon_code",
                       "lexicon_version", "move_count", "to_move", "deadline",
                       "remind_at", "started_at", "finished_at", "end_reason")
    inlines = [SeatInline, MoveInline]

    def has_add_permission(self, request):
        return False
