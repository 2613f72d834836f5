from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.template.response import TemplateResponse

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

    # Removing a user's row would take the other players' games and results with it:
    # accounts are deleted only by ``delete_accounts``, which keeps the row, emptied.
    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        # Asked with no account, it gates ``delete_accounts``; with one, Django's own
        # delete page, which removes the row.
        return obj is None and super().has_delete_permission(request)

    # A player's data is theirs: only staff who may change accounts download it, and only
    # those who may delete them delete it, after a page that says what goes.
    @admin.action(description="Download the selected player's data (JSON)", permissions=["change"])
    def download_data(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose one player to download the data of.", messages.ERROR)
            return None
        return views.data_download(queryset.get())

    @admin.action(
        description="Delete the selected players' accounts (personal data; their games stay)", permissions=["delete"]
    )
    def delete_accounts(self, request, queryset):
        users = list(queryset.order_by("username"))
        kept = [user for user in users if user.is_superuser or user.pk == request.user.pk]
        for user in kept:
            reason = (
                "your own account is deleted from its settings page"
                if user.pk == request.user.pk
                else "a superuser's account is not deleted here"
            )
            self.message_user(request, f"{user.username}: {reason}.", messages.WARNING)
        users = [user for user in users if user not in kept]
        if not users:
            return None
        if not request.POST.get("confirm"):
            context = {
                **self.admin_site.each_context(request),
                "title": "Delete accounts",
                "opts": self.model._meta,
                "users": users,
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            }
            return TemplateResponse(request, "admin/accounts/user/delete_accounts.html", context)
        deleted = 0
        for user in users:
            try:
                player_data.account_delete(user=user)
                deleted += 1
            except Refused as refused:
                self.message_user(request, f"{user.username}: {refused.reason}", messages.WARNING)
        self.message_user(request, f"Deleted {deleted} account{'s' if deleted != 1 else ''}.")
        return None


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "text", "created_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "text")
