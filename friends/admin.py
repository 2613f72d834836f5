from django.contrib import admin

from .models import Follow, HuntInvitation


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created_at")
    search_fields = ("follower__username", "followed__username")


@admin.register(HuntInvitation)
class HuntInvitationAdmin(admin.ModelAdmin):
    list_display = ("sender", "invitee", "table", "status", "created_at", "expires_at")
    list_filter = ("status",)
