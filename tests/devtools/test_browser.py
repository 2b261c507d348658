"""devtools/browser.py: where Chromium or its driver is missing, the reason names the path and
the script that installs it (the browser tests and scripts skip or stop with it)."""

from devtools import browser


def test_a_missing_chromium_or_driver_is_named_with_its_remedy(monkeypatch, tmp_path):
    monkeypatch.setattr(browser, "CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.setattr(browser, "DRIVER", str(tmp_path / "chromedriver"))
    assert browser.chromium_missing() == (f"{tmp_path / 'chromium'} not found: "
                                          "run scripts/install_chromium.sh")
    assert browser.driver_missing().startswith(
        (f"{tmp_path / 'chromedriver'} not found", "selenium not installed"))
    (tmp_path / "chromedriver").write_text("")
    (tmp_path / "chromium").write_text("")
    assert browser.chromium_missing() is None
    assert browser.driver_missing() in (None, "selenium not installed "
                                              "(pip install -r requirements.txt)")


def test_a_page_url_carries_its_fragment(tmp_path):
    page = tmp_path / "p.html"
    assert browser.page_url(page, "game=3") == f"{page.as_uri()}#game=3"
    assert browser.page_url(page) == page.as_uri()
