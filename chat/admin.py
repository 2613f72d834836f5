"""The moderators' chat queue: open reports first, with hide, suspend and dismiss actions.

Actions go through ``chat.services`` (pages drop hidden messages at once; suspended
players are told), never by editing rows here.
"""

from django.contrib import admin, messages

from . import services
from .models import ChatOff, Message, Mute, Report, Suspension


class OpenFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "open"

    def lookups(self, request, model_admin):
        return (("yes", "Open"), ("no", "Resolved"))

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "message_text", "message_author", "room", "reporter", "reason", "resolution")
    list_filter = (OpenFilter, "resolution")
    search_fields = ("message__text", "message__author__username", "reporter__username")
    list_select_related = ("message__author", "reporter")
    readonly_fields = ("message", "reporter", "reason", "created_at", "resolved_at", "resolved_by", "resolution")
    actions = ("hide_messages", "hide_and_suspend", "dismiss")

    def has_add_permission(self, request):
        return False

    @admin.display(description="message")
    def message_text(self, report):
        return report.message.text

    @admin.display(description="author")
    def message_author(self, report):
        return report.message.author

    @admin.display(description="room")
    def room(self, report):
        return report.message.room

    @admin.action(description="Hide the reported messages", permissions=["change"])
    def hide_messages(self, request, queryset):
        ids = set(queryset.values_list("message_id", flat=True))
        for message_id in ids:
            services.message_hide(message_id=message_id, by=request.user)
        self.message_user(request, f"Hid {len(ids)} message(s).", messages.SUCCESS)

    @admin.action(description="Hide the messages and suspend their authors' chat for 7 days", permissions=["change"])
    def hide_and_suspend(self, request, queryset):
        ids = set(queryset.values_list("message_id", flat=True))
        for message_id in ids:
            services.message_hide_and_suspend(message_id=message_id, by=request.user)
        self.message_user(request, f"Hid {len(ids)} message(s) and suspended their authors.", messages.SUCCESS)

    @admin.action(description="Dismiss (keep the messages)", permissions=["change"])
    def dismiss(self, request, queryset):
        count = sum(
            services.report_dismiss(report_id=pk, by=request.user) for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Dismissed {count} report(s).", messages.SUCCESS)

    def get_queryset(self, request):
        return super().get_queryset(request).order_by("resolved_at", "-created_at")


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "room", "author", "text", "hidden_at")
    list_filter = ("hidden_at",)
    search_fields = ("text", "author__username", "room")
    list_select_related = ("author",)
    readonly_fields = ("room", "author", "text", "created_at", "hidden_at", "hidden_by")
    actions = ("hide",)

    def has_add_permission(self, request):
        return False

    @admin.action(description="Hide these messages", permissions=["change"])
    def hide(self, request, queryset):
        for message_id in queryset.values_list("pk", flat=True):
            services.message_hide(message_id=message_id, by=request.user)


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ("user", "until", "reason", "created_by", "created_at")
    search_fields = ("user__username",)
    autocomplete_fields = ("user",)
    readonly_fields = ("created_by", "created_at")

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


admin.site.register(Mute)
admin.site.register(ChatOff)
