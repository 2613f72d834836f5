"""The start-up check that keeps the submit statement's one round trip possible."""

from __future__ import annotations

from django.db import connections

from games.hunts.checks import submit_statement_binding


def test_server_side_binding_is_refused_at_start_up(monkeypatch):
    settings_dict = connections.settings["default"]
    assert submit_statement_binding() == []
    monkeypatch.setitem(settings_dict, "OPTIONS", {**settings_dict.get("OPTIONS", {}), "server_side_binding": True})
    if "postgresql" not in settings_dict["ENGINE"]:
        monkeypatch.setitem(settings_dict, "ENGINE", "django.db.backends.postgresql")
    assert [error.id for error in submit_statement_binding()] == ["hunts.E001"]
