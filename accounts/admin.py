from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import Notification, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "display_name", "is_staff", "is_bot", "date_joined")
    list_filter = ("is_staff", "is_bot", "is_active")
    fieldsets = BaseUserAdmin.fieldsets + (
        ("Player", {"fields": ("display_name", "preferred_lexicon", "email_notifications", "is_bot")}),
    )


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "text", "created_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "text")
