"""The one refusal every use case raises: a reason a player can read, and a status."""

from __future__ import annotations


class Refused(Exception):
    """An action the rules, the state of a game or the site's policies refuse.

    ``reason`` is shown to the player as is. ``status`` is what an HTTP view answers
    with: 400 for a bad request, 403 for someone with no say, 404 for something that is
    not there, 409 for a state that moved on, 429 for too many tries. A websocket
    consumer sends the reason back in an ``error`` (or ``result``) message.
    """

    def __init__(self, reason: str, status: int = 400):
        super().__init__(reason)
        self.reason = reason
        self.status = status


def wants_json(request) -> bool:
    """A script's request (``fetch`` asking for JSON), not a page a person navigates."""
    return "application/json" in request.headers.get("Accept", "") and not request.headers.get("HX-Request")


class RefusedMiddleware:
    """Answers a ``Refused`` that a view lets through, the same way for every view.

    A script gets ``{"ok": false, "reason": ...}`` with the refusal's status; an htmx
    request reloads its page; a person is sent back to the page they came from with the
    reason as a message, or, with no such page, shown the reason with the status.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, Refused):
            return None
        from django.contrib import messages
        from django.http import HttpResponse, JsonResponse
        from django.shortcuts import redirect, render
        from django.utils.http import url_has_allowed_host_and_scheme

        if wants_json(request):
            return JsonResponse({"ok": False, "reason": exception.reason}, status=exception.status)
        if request.headers.get("HX-Request"):
            # htmx would swap a whole page into a fragment: reload the page instead, which
            # then shows the reason as a message.
            messages.error(request, exception.reason)
            return HttpResponse(status=204, headers={"HX-Refresh": "true"})
        back = request.headers.get("Referer", "")
        if back and url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
            messages.error(request, exception.reason)
            return redirect(back)
        return render(request, "refused.html", {"reason": exception.reason}, status=exception.status)
