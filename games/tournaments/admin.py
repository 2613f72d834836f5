"""Tournaments in the admin: the recurring arenas' schedule, and events to look into."""

from django import forms
from django.contrib import admin

from config.errors import Refused
from games import registry

from .models import ArenaSchedule, DirectorAction, Entry, Pairing, Tournament
from .services import plays_tournaments, settings_chosen


class ArenaScheduleForm(forms.ModelForm):
    """A schedule's pool and game settings are checked as a director's would be: a
    schedule that could create no arena is not saved."""

    class Meta:
        model = ArenaSchedule
        fields = (
            "name",
            "kind",
            "pool",
            "game_settings",
            "rated",
            "first_start",
            "every_minutes",
            "duration_minutes",
            "ahead_minutes",
            "active",
        )
        help_texts = {
            "game_settings": "By the game's own setting names, e.g. for Word Rampage "
            '{"round_seconds": 120, "lexicon_code": "en"}; {} for its defaults.'
        }

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            kind = registry.kind(data["kind"])
            if not plays_tournaments(kind):
                raise Refused(f"{kind.name} cannot be played in tournaments.")
            kind.pool(data["pool"])
        except (registry.RegistryError, KeyError):
            raise forms.ValidationError("No such game or pool.") from None
        except Refused as refused:
            raise forms.ValidationError(refused.reason) from None
        try:
            settings_chosen(kind, data["pool"], data["game_settings"] or {})
        except Refused as refused:
            raise forms.ValidationError({"game_settings": refused.reason}) from None
        return data


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    form = ArenaScheduleForm
    list_display = ("name", "pool", "first_start", "every_minutes", "duration_minutes", "rated", "active")
    list_filter = ("active", "pool")
    list_editable = ("active",)


class DirectorActionInline(admin.TabularInline):
    model = DirectorAction
    extra = 0
    fields = ("at", "director", "action", "reason", "details")
    readonly_fields = fields
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "pool", "status", "starts_at", "current_round", "rated")
    list_filter = ("status", "format", "pool")
    search_fields = ("name",)
    readonly_fields = ("current_round", "created_by", "created_at", "finished_at", "reminded_at")
    inlines = [DirectorActionInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "rating", "points", "withdrawn_at")
    search_fields = ("user__username", "tournament__name")
    raw_id_fields = ("user", "tournament", "removed_by")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "board", "status", "game_url", "corrected")
    list_filter = ("status",)
    raw_id_fields = ("tournament", "round")
