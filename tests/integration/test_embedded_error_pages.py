"""The embedded default shows players the site's own error pages, not Django's debug pages."""

import urllib.error
import urllib.request

import pytest

from tests.integration.test_embedded_mode import embedded_site  # noqa: F401  (the fixture)


def test_embedded_404_is_the_sites_own_page(embedded_site):  # noqa: F811
    """An unknown address answers 404 with the site's page; static files are still served."""
    host, _ = embedded_site
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://{host}/no-such-page/")
    body = refused.value.read().decode()
    assert refused.value.code == 404
    assert "No such page." in body and "URLconf" not in body and "DEBUG = True" not in body
    with urllib.request.urlopen(f"http://{host}/static/css/site.css") as response:
        assert response.status == 200 and b"--accent" in response.read()
