"""manage.py load_lexicons and lexicon_stats."""

import io
import lzma

import pytest
from django.core.management import CommandError, call_command

from lexicon import services, wordlists
from lexicon.models import Lexicon

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_load_lexicons_is_idempotent():
    """Running it twice leaves five rows at their versions and reports each count."""
    Lexicon.objects.filter(code="common").update(current_version=1, name="old name")
    first = run("load_lexicons")
    second = run("load_lexicons")
    without_times = [line.split("(")[0] for line in first.splitlines()]
    assert without_times == [line.split("(")[0] for line in second.splitlines()]
    assert Lexicon.objects.count() == 5
    assert Lexicon.objects.get(code="common").name == "Common English"
    for code in wordlists.CODES:
        assert code in first
    assert "254626 words" in first


def test_load_lexicons_keeps_versions(django_user_model):
    """Reloading never resets a lexicon's version."""
    Lexicon.objects.filter(code="wordgame").update(current_version=7)
    run("load_lexicons", "-v", "0")
    assert Lexicon.objects.get(code="wordgame").current_version == 7


def test_lexicon_stats_lists_every_lexicon():
    """The stats name each lexicon with its version and size, in display order."""
    out = run("lexicon_stats")
    lines = [line.split()[0] for line in out.splitlines()[1:6]]
    assert lines == ["en-gb", "en-us", "en", "common", "wordgame"]
    assert "51497" in out


def test_corrupt_list_fails_naming_the_file(tmp_path, monkeypatch):
    """A corrupt data file stops the command with the file named."""
    for code in wordlists.STORED_CODES:
        (tmp_path / f"{code}.txt.xz").write_bytes(lzma.compress(b"cat\n"))
    (tmp_path / "wordgame.txt.xz").write_bytes(b"broken")
    monkeypatch.setattr(wordlists, "DATA_DIR", tmp_path)
    monkeypatch.setattr(services, "cache_dir", lambda: tmp_path / "cache")
    services.forget_loaded()
    try:
        with pytest.raises(CommandError, match="wordgame.txt.xz"):
            run("load_lexicons", "-v", "0")
    finally:
        services.forget_loaded()


def test_load_lexicons_creates_the_moderators_group(make_user):
    """Staff in the "Dictionary moderators" group may decide requests."""
    from django.contrib.auth.models import Group

    run("load_lexicons", "-v", "0")
    run("load_lexicons", "-v", "0")
    staff = make_user("mod", is_staff=True)
    assert not services.can_moderate(staff)
    staff.groups.add(Group.objects.get(name=services.MODERATORS_GROUP))
    staff = type(staff).objects.get(pk=staff.pk)  # permissions are cached per instance
    assert services.can_moderate(staff)
