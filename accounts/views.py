from __future__ import annotations

import json
import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config import embedded
from config.celery import app
from config.errors import Refused
from config.startup import engine_build
from config.throttle import heavy_page

from . import my_games as games_of_player
from . import player_data, services, webpush
from .forms import AccountDeleteForm, PasswordResetRequestForm, SettingsForm, SignUpForm
from .models import PASSES_FOR_ANOTHER, NameTaken, User

logger = logging.getLogger(__name__)


def home(request):
    return render(request, "home.html", {"online": services.online_players()})


def sign_up(request):
    if request.user.is_authenticated:
        return redirect("profile", request.user.username)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.sign_up(username=data["username"], email=data["email"], password=data["password1"])
        except Refused as refused:
            form.add_error("username", refused.reason)
        else:
            return render(
                request, "registration/signup_sent.html", {"email": data["email"], "days": services.confirmation_days()}
            )
    return render(request, "registration/signup.html", {"form": form})


def sign_up_confirm(request, uidb64: str, token: str):
    user = services.sign_up_confirm(uidb64=uidb64, token=token)
    if user is None:
        return render(request, "registration/signup_confirm_failed.html", status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome, {user.username}! Your account is ready.")
    return redirect("profile", user.username)


def password_reset(request):
    """Ask for a reset link: the same answer, as fast, whether or not the address has an account."""
    form = PasswordResetRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.password_reset_request(email=form.cleaned_data["email"])
        return redirect("password_reset_done")
    return render(request, "registration/password_reset_form.html", {"form": form})


@heavy_page()
def profile(request, username: str):
    player = get_object_or_404(User, username=username, is_active=True)
    return render(request, "accounts/profile.html", {"player": player})


@login_required
@require_GET
def my_games(request):
    """Every game the player is in, of every kind; the lists reload when one changes."""
    return render(request, "accounts/my_games.html", {"games": games_of_player.my_games(user=request.user)})


@login_required
def account_settings(request):
    current_email = request.user.email
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        new_email = form.cleaned_data["email"]
        user = form.save(commit=False)
        user.email = current_email  # a new address waits for its link
        try:
            user.save()
        except NameTaken as taken:  # a name like it was claimed by another player a moment ago
            form.add_error(taken.field, PASSES_FOR_ANOTHER)
            user.refresh_from_db()
        else:
            form.save_preferences(user)
            messages.success(request, "Settings saved.")
            if new_email != current_email:
                services.email_change_request(user=user, email=new_email)
                messages.info(request, f"We sent a link to {new_email}; your address changes when you open it.")
            return redirect("settings")
    return render(request, "accounts/settings.html", {"form": form, "push_key": webpush.application_server_key()})


def _subscription(request) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("endpoint"), str):
        raise Refused("Send the subscription as JSON: its endpoint and keys.")
    return data


@require_POST
@login_required
def push_subscribe(request):
    """This device gets the player's pushes: the body is the browser's ``PushSubscription.toJSON()``."""
    data = _subscription(request)
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    services.push_subscribe(
        user=request.user,
        endpoint=data["endpoint"],
        p256dh=str(keys.get("p256dh", "")),
        auth=str(keys.get("auth", "")),
        device=request.headers.get("User-Agent", ""),
    )
    return JsonResponse({"ok": True}, status=201)


@require_POST
@login_required
def push_unsubscribe(request):
    data = _subscription(request)
    services.push_unsubscribe(user=request.user, endpoint=data["endpoint"])
    return JsonResponse({"ok": True})


@login_required
def email_change_confirm(request, token: str):
    email = services.email_change_confirm(user=request.user, token=token)
    messages.success(request, f"Your email address is now {email}.")
    return redirect("settings")


@login_required
def notifications(request):
    """The latest notifications; each is marked read when it is opened, or all at once."""
    items = list(request.user.notifications.all()[:100])
    return render(request, "accounts/notifications.html", {"items": items})


@login_required
def notification_open(request, pk: int):
    """Mark a notification read (the bell counts one fewer) and go where it points."""
    notification = services.notification_open(user=request.user, notification_id=pk)
    if notification is None:
        raise Http404("No such notification.")
    return redirect(
        notification.url
        if url_has_allowed_host_and_scheme(notification.url, allowed_hosts={request.get_host()}) and notification.url
        else "notifications"
    )


@require_POST
@login_required
def notifications_read(request):
    services.notifications_mark_read(user=request.user)
    return redirect("notifications")


@require_POST
@login_required
def notifications_seen(request):
    """The page at ``url`` is in front of its player: its notifications are read."""
    services.notifications_seen(user=request.user, url=request.POST.get("url", ""))
    return JsonResponse({"ok": True})


def _may_see_health_details(request) -> bool:
    """Staff, or a request from this machine that came through no proxy (a monitor)."""
    if request.user.is_authenticated and request.user.is_staff:
        return True
    local = request.META.get("REMOTE_ADDR") in ("127.0.0.1", "::1")
    return local and "HTTP_X_FORWARDED_FOR" not in request.META


@never_cache
def healthz(request):
    """ok, or 503 if the database, Redis or the Celery workers are down.

    Which part is down, and how, is shown to staff and local monitors only: it tells
    an outsider how the site is built and when it is weak.
    """
    status = _health()
    code = 200 if status["status"] == "ok" else 503
    if not _may_see_health_details(request):
        status = {"status": status["status"]}
    return JsonResponse(status, status=code)


def _health() -> dict:
    status = {"mode": "server" if settings.SERVER_MODE else "embedded"}
    healthy = True
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        status["database"] = "ok"
    except Exception as exc:
        healthy = False
        status["database"] = f"down: {exc.__class__.__name__}"
        logger.error("Health check: database down: %s", exc)
    if settings.SERVER_MODE:
        import redis

        try:
            redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1).ping()
            status["redis"] = "ok"
        except Exception as exc:
            healthy = False
            status["redis"] = f"down: {exc.__class__.__name__}"
            logger.error("Health check: Redis down: %s", exc)
        if status["redis"] == "ok":
            try:
                replies = app.control.ping(timeout=1.0)
            except Exception as exc:
                replies = []
                logger.error("Health check: Celery ping failed: %s", exc)
            status["celery"] = (
                f"ok ({len(replies)} worker{'s' if len(replies) != 1 else ''})"
                if replies
                else "down: no worker answered"
            )
            healthy = healthy and bool(replies)
        else:
            status["celery"] = "down: broker unreachable"
    else:
        status["redis"] = "not used (embedded channel layer)"
        status["celery"] = "ok (embedded)" if embedded.worker_alive() else "down: embedded worker not running"
        healthy = healthy and embedded.worker_alive()
    status["engine"] = engine_build()
    status["status"] = "ok" if healthy else "down"
    return status


def data_download(user) -> HttpResponse:
    """``user``'s data as a JSON file to save (the player's own download and the admin's)."""
    body = json.dumps(player_data.account_export(user=user), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="wordfall-{user.username}.json"'
    return response


@login_required
@require_GET
@never_cache
def account_data(request):
    """Download everything the site keeps of the player's: profile, games, moves, ratings,
    chat lines, requests."""
    return data_download(request.user)


@login_required
def account_delete(request):
    """Delete the account after the player confirms with their password."""
    form = AccountDeleteForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        player_data.account_delete(user=request.user)
        logout(request)
        messages.success(request, "Your account has been deleted. Thank you for playing.")
        return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})
