from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from config.errors import Refused

from . import player_data, views
from .models import Notification, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "display_name", "is_staff", "is_bot", "date_joined")
    list_filter = ("is_staff", "is_bot", "is_active")
    fieldsets = BaseUserAdmin.fieldsets + (
        ("Player", {"fields": ("display_name", "preferred_lexicon", "email_notifications", "is_bot")}),
    )
    actions = ["download_data", "delete_accounts"]

    @admin.action(description="Download the selected player's data (JSON)")
    def download_data(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose one player to download the data of.", messages.ERROR)
            return None
        return views.data_download(queryset.get())

    @admin.action(description="Delete the selected players' accounts (personal data; their games stay)")
    def delete_accounts(self, request, queryset):
        deleted = 0
        for user in queryset:
            try:
                player_data.account_delete(user=user)
                deleted += 1
            except Refused as refused:
                self.message_user(request, f"{user}: {refused.reason}", messages.WARNING)
        self.message_user(request, f"Deleted {deleted} account(s).")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "text", "created_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "text")
