from django.contrib import admin

from .models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("pk", "players", "words", "status", "move_count", "voting", "created_at")
    list_filter = ("status", "words")
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "seat", "kind", "score", "accepted")
    list_filter = ("kind",)
