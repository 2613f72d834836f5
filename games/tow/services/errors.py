"""TOW services refuse with Word Grid's one refusal type (a reason and an HTTP status)."""

from games.crosswords.services.errors import Refused

__all__ = ["Refused"]
