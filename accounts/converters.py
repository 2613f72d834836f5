"""URL converters for addresses that name a player."""

from django.urls import register_converter


class UsernameConverter:
    """Only what a username may hold (``UnicodeUsernameValidator``): no NUL, no slash.

    Anything else in a player's address is no player, so it answers 404 before a query
    (PostgreSQL refuses a NUL byte in text with an error, which was a 500).
    """

    regex = r"[\w.@+-]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(UsernameConverter, "username")
