"""What an operator meets on the first day: settings read as documented, no stray 404s or odd counts."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT
from tests.integration.test_setup import production_env


def test_a_filemail_url_keeps_its_absolute_path(tmp_path):
    """EMAIL_URL=filemail:///path writes to /path, not to a folder of that name inside the checkout."""
    folder = tmp_path / "mail"
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-v",
            "0",
            "-c",
            "from django.conf import settings; print(settings.EMAIL_FILE_PATH)",
        ],
        cwd=ROOT,
        env=production_env(EMAIL_URL=f"filemail://{folder}"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(folder)


def test_favicon_ico_leads_to_the_site_icon(client):
    """/favicon.ico, asked for by browsers and monitors without a page, redirects to the icon."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("favicon.svg")
    assert client.get(response["Location"]).status_code == 200


def test_a_page_past_no_games_says_there_are_none(client, make_user):
    """A player with no rated games: page 2 is refused with "there are 0", as the answer's own count."""
    make_user("ann")
    assert client.get("/api/players/ann/games").json()["pages"] == 0
    response = client.get("/api/players/ann/games", {"page": "2"})
    assert response.status_code == 404
    assert response.json() == {"error": "No page 2; there are 0."}


def test_the_shipped_celery_commands_print_no_banner():
    """Worker and beat start with --quiet wherever the project starts them: their banner is
    the one thing they print that is not a log line, which LOG_FORMAT=json could not parse."""
    commands = [line for line in (ROOT / "Procfile").read_text().splitlines() if "celery" in line]
    commands += [
        line
        for line in (ROOT / "config" / "supervisord.conf").read_text().splitlines()
        if line.startswith("command=") and "celery" in line
    ]
    assert len(commands) == 4
    assert all("celery --quiet -A config" in command for command in commands), commands


def test_the_procfiles_beat_keeps_its_schedule_in_var_dir():
    """Every Procfile command that writes a file writes it under VAR_DIR, as `make run` does."""
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    assert "--schedule=${VAR_DIR:-var}/celerybeat-schedule" in procfile["beat"]
