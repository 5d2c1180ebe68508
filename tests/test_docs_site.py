"""The documentation site, built and read as a reader would: ``bash dev.sh docs``'s build (warnings are errors,
offline), every internal link and anchor resolving, the search index finding the estimators, and headless
Chromium rendering the front page, an API page and a gallery page.

The build executes the notebooks and the getting-started page, so it takes minutes: it runs once for the module.
"""

from __future__ import annotations

import html.parser
import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.chromium import Browser, require_chromium

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DEV_SH = ROOT / "dev.sh"


def sphinx_arguments() -> list[str]:
    """The arguments ``bash dev.sh docs`` gives sphinx-build, read from dev.sh (so the test builds as it does)."""
    line = next(line for line in DEV_SH.read_text().splitlines() if "/bin/sphinx-build" in line)
    words = line.split('"$VENV/bin/sphinx-build"', 1)[1].split()
    assert words[-1] == '"$@"' and words[-3:-1] == ["docs", "docs/_build/html"], line
    return words[:-3]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "html"
    command = [sys.executable, "-m", "sphinx", *sphinx_arguments(), "docs", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    return out


class _Page(html.parser.HTMLParser):
    """The ids a page defines and the links it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        if tag == "a" and values.get("href"):
            self.links.append(values["href"] or "")
        for attribute in ("src",) if tag in ("img", "script") else ("href",) if tag == "link" else ():
            if values.get(attribute):
                self.sources.append(values[attribute] or "")


def read_pages(site: Path) -> dict[Path, _Page]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        if "_static" in path.relative_to(site).parts:  # the theme's template macros, not pages
            continue
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path] = page
    return pages


def test_the_site_has_its_sections_and_a_page_per_public_name(site):
    for page in ("index.html", "getting_started.html", "guide/python.html", "guide/deploy.html", "cli.html",
                 "api/index.html", "gallery.html", "results/table1.html", "architecture.html", "changelog.html"):
        assert (site / page).is_file(), page
    api = sorted(path.name for path in (site / "api").rglob("*.html"))
    assert len(api) > 150  # one page per public name of the faces
    assert any(name.endswith("BooleanRuleCV.html") for name in api)


def test_every_internal_link_and_anchor_resolves(site):
    pages = read_pages(site)
    broken, checked = [], 0
    for path, page in pages.items():
        for link in page.links + page.sources:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("mailto:"):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            checked += 1
            if not target.exists():
                broken.append(f"{path.relative_to(site)}: {link} (no file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else set()
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path.relative_to(site)}: {link} (no anchor)")
    assert checked > 5000
    assert not broken, "\n".join(broken[:40])


def test_no_page_loads_anything_from_another_host(site):
    """Offline: scripts, styles and images come from the site itself."""
    remote = [f"{path.relative_to(site)}: {source}" for path, page in read_pages(site).items()
              for source in page.sources if urlsplit(source).scheme in ("http", "https") or source.startswith("//")]
    assert not remote


def search_index(site: Path) -> dict:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"Search\.setIndex\((.*)\)\s*;?\s*$", text, re.DOTALL).group(1))


def test_the_search_index_finds_the_estimators_and_their_pages(site):
    """As the site's search does: a name is found as an object (its API page) and as a word of the pages."""
    index = search_index(site)
    docnames = index["docnames"]
    for name in ("BooleanRuleCV", "BooleanRuleClassifier", "to_sql", "load_dataset"):
        pages = [docnames[entry[0]] for entries in index["objects"].values() for entry in entries if entry[4] == name]
        assert any(page.startswith("api/") and page.endswith(name) for page in pages), name
    in_text = {docnames[number] for number in _as_list(index["terms"]["booleanrulecv"])}  # a word not stemmed
    assert {"getting_started", "guide/explain", "guide/python"} <= in_text
    in_titles = {docnames[number] for number in _as_list(index["titleterms"]["booleanrulecv"])}
    assert "api/generated/rulemodels.BooleanRuleCV" in in_titles


def _as_list(entry) -> list[int]:
    return entry if isinstance(entry, list) else [entry]


@pytest.fixture(scope="module")
def docs_browser():
    browser = Browser(require_chromium())
    with browser:
        yield browser


@pytest.mark.parametrize(("page", "texts", "min_figures"), [
    ("index.html", ["rulemodels", "Getting started", "User guide", "API reference"], 1),
    ("api/generated/rulemodels.BooleanRuleCV.html", ["BooleanRuleCV", "Parameters", "fit"], 0),
    ("notebooks/03_algorithms.html", ["BCD", "objective"], 1),
])
def test_chromium_renders_the_front_page_an_api_page_and_a_gallery_page(site, docs_browser, page, texts, min_figures):
    path = site / page
    if not path.exists():  # the API pages' folder follows api_pages.py: find the page by its name
        path = next(site.rglob(Path(page).name))
    visit = docs_browser.visit(path)
    assert visit.errors == []
    outside = [request for request in visit.requests if not request.startswith(site.resolve().as_uri())]
    assert not outside, "the page requested something outside the site"
    for text in texts:
        assert text in visit.text, text
    colours = len(visit.image.getcolors(maxcolors=1 << 20) or [])
    assert visit.image.size[1] > 500 and colours > 50, "a blank or empty page"
    figures = [box for box in visit.boxes if box[2] > 100 and box[3] > 100]
    assert len(figures) >= min_figures
    for box in figures:
        assert visit.region_colours(box) > 3, f"the figure at {box} is blank"
