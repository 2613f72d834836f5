"""TOW services refuse with the site's one refusal type (a reason and an HTTP status)."""

from config.errors import Refused

__all__ = ["Refused"]
