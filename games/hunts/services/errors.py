"""Hunt use cases refuse with the site's one refusal type (``config.errors``)."""

from config.errors import Refused

# The name hunt code used before the refusal types were one: the same class.
HuntError = Refused

__all__ = ["HuntError", "Refused"]
