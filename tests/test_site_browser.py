"""The results site in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven
by Playwright opens the smoke site from disk (file://, no server, no network): no console
errors, every figure drawn, a point's hover shows its values, a legend click hides a column,
the claims filter hides the other verdicts. Screenshots of the index and of Table 4's page go
to <the test's outputs>/site/_screenshots/ (the path is printed: pytest -s shows it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_site import EXPERIMENT, build_smoke_site

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
# no sandbox (containers, root), no GPU, nothing fetched from the network at start
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"no {CHROMIUM}: `make browser` (apt-get install -y chromium, as root) to run the browser test")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="no playwright: pip install -e '.[dev]' to run the browser test")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_smoke_site(tmp_path_factory.mktemp("site") / "outputs")


def open_page(browser, path: Path):
    """The page at ``path``, loaded, and the list its console errors and uncaught exceptions go to."""
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, errors


def test_every_page_opens_without_errors_and_draws_its_figures(browser, site):
    drawn = 0
    for path in sorted(site.glob("*.html")):
        page, errors = open_page(browser, path)
        figures = page.locator("div.figure")
        for index in range(figures.count()):
            # plotly's SVG with the traces in it: lines and points (an empty chart has none)
            assert figures.nth(index).locator("svg.main-svg .scatterlayer path").count() > 0, (path.name, index)
            drawn += 1
        assert errors == [], path.name
        if path.name in ("index.html", "stabilized.html"):
            shots = site / "_screenshots"
            page.screenshot(path=str(shots / path.with_suffix(".png").name), full_page=True)
            print(f"screenshot: {shots / path.with_suffix('.png').name}")
        page.close()
    assert drawn == 4  # Table 4 by time, by playouts and its ERT figure (plain runs), by playouts (matched-work runs)


def test_hovering_a_point_shows_its_cell(browser, site):
    page, errors = open_page(browser, site / "stabilized.html")
    point = page.locator(f"#{EXPERIMENT}-figure .scatterlayer .trace .points path").first
    point.scroll_into_view_if_needed()
    box = point.bounding_box()
    # plotly reads the mouse on its drag layer above the points: move there, as a user does
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    hover = page.locator(f"#{EXPERIMENT}-figure .hoverlayer .hovertext").first
    hover.wait_for()
    text = hover.text_content()
    for part in ("mean", "95% CI", "n = 2", "published"):
        assert part in text, text
    assert errors == []


def test_a_legend_click_hides_a_whole_column(browser, site):
    page, _ = open_page(browser, site / "stabilized.html")
    figure = f"{EXPERIMENT}-figure"
    visible = f"document.getElementById('{figure}').data.filter(t => t.legendgroup === 'NRPA').map(t => t.visible)"
    assert "legendonly" not in page.evaluate(visible)
    page.locator(f"#{figure} .legend .traces .legendtoggle").first.click()
    # plotly applies a single click once its double-click delay has passed
    page.wait_for_function(f"{visible}.includes('legendonly')")
    states = page.evaluate(visible)
    assert len(states) >= 3 and set(states) == {"legendonly"}  # band, line and published points go together


def test_the_claims_filter_hides_the_other_verdicts(browser, site):
    page, errors = open_page(browser, site / "claims.html")
    rows = page.locator("tr.claim")
    verdicts = [rows.nth(i).get_attribute("data-verdict") for i in range(rows.count())]
    assert len(set(verdicts)) >= 2, verdicts  # the smoke claims are inconclusive or not judged
    chosen = verdicts[0]
    page.select_option("#verdict-filter", chosen)
    for i, verdict in enumerate(verdicts):
        assert rows.nth(i).is_visible() == (verdict == chosen), (i, verdict)
    assert page.locator("#claims-shown").text_content() == str(verdicts.count(chosen))
    page.select_option("#verdict-filter", "")
    assert all(rows.nth(i).is_visible() for i in range(len(verdicts)))
    assert errors == []
