"""What the site's admin pages share."""

from django.contrib import admin


class ViewOnlyAdmin(admin.ModelAdmin):
    """Rows that change only through services (ratings, decided word changes, hunt rounds and
    finds): staff may look, never add, edit or delete them by hand."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
