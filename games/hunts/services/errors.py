"""Hunt use cases refuse with the site's one refusal type (``config.errors``)."""

from config.errors import Refused

__all__ = ["Refused"]
