"""``render_html``: one result as a self-contained HTML file (the web page's evidence map, offline)."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

import pytest

from clinrag.documents import load_documents
from clinrag.html_export import render_html, write_html
from clinrag.schema import AskResult

MAMMOGRAPHY = "When should average-risk women start mammography, and do the organizations agree?"
XSS = '</script><script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><!--'
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DATA_TAG = re.compile(r'<script type="application/json" id="clinrag-data">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def result(guideline_index) -> AskResult:
    from clinrag.run import ask

    return ask(MAMMOGRAPHY)


@pytest.fixture(scope="module")
def corpus() -> list:
    return load_documents()


def poisoned(result: AskResult) -> AskResult:
    data = result.model_dump(mode="json")
    data["question"] = XSS
    data["evidence"][0]["text"] = XSS + data["evidence"][0]["text"]
    data["evidence"][0]["title"] = XSS
    data["answer"] = XSS + "\n" + data["answer"]
    return AskResult.model_validate(data)


def embedded(page: str) -> dict:
    return json.loads(DATA_TAG.search(page).group(1))


def test_the_file_embeds_the_result_and_the_documents_of_its_topics(result, corpus):
    page = render_html(result, corpus)
    data = embedded(page)
    assert data["result"] == result.model_dump(mode="json")
    drawn = {d["doc_id"] for d in data["corpus"]}
    assert {"uspstf-breast-2016", "acog-breast-2017", "acs-breast-2015"} <= drawn  # the topic's versions too
    assert all(d["topic"] == "breast-cancer-screening" for d in data["corpus"])  # not the whole corpus
    assert "Not medical advice" in page


def test_the_file_is_self_contained(result, corpus):
    page = render_html(result, corpus)
    assert not re.search(r"<(script|img|link|iframe)[^>]*\s(src|href)=", page, re.I)  # nothing loaded from anywhere
    assert "@import" not in page and "url(" not in page
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    style = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    for inline in [*scripts, style]:  # the policy allows exactly the inlined script and style, by hash
        digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp


def test_markup_in_the_data_cannot_leave_its_script_tag(result, corpus):
    page = render_html(poisoned(result), corpus)
    assert page.count("<script") == 3  # the data, render.js, the boot script: no injected element
    assert "<img" not in page
    data = embedded(page)
    assert data["result"]["question"] == XSS and data["result"]["evidence"][0]["title"] == XSS
    assert "<title>clinrag: &lt;/script&gt;" in page


def test_write_html(result, tmp_path):
    path = write_html(tmp_path / "map.html", result)
    assert embedded(path.read_text(encoding="utf-8"))["result"]["question"] == MAMMOGRAPHY


def test_ask_html_writes_the_file(guideline_index, tmp_path, capsys):
    from clinrag.cli.main import build_parser, main

    ask_parser = next(a for a in build_parser()._actions if getattr(a, "choices", None) and "ask" in a.choices)
    if "--html" not in ask_parser.choices["ask"]._option_string_actions:
        pytest.skip("clinrag ask --html is not wired yet (the ask.py patch of issue 14)")
    out = tmp_path / "answer.html"
    assert main(["ask", "--html", str(out), MAMMOGRAPHY]) == 0
    assert embedded(out.read_text(encoding="utf-8"))["result"]["decision"] == "answer"


@pytest.mark.integration
def test_the_file_draws_the_map_offline_and_runs_no_injected_markup(result, corpus, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs `pip install playwright`")
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium: apt-get install -y chromium chromium-driver")
    path = tmp_path / "map.html"
    path.write_text(render_html(poisoned(result), corpus), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
        page = context.new_page()
        errors, requests = [], []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(path.as_uri())
        page.wait_for_selector("svg.evmap")
        assert {"ACS", "USPSTF", "ACOG", "ACR"} <= set(page.locator("svg.evmap text.org").all_text_contents())
        assert "superseded by uspstf-breast-2024" in page.locator("svg.evmap text.sup").all_text_contents()
        row = page.locator("#differ tbody tr", has=page.locator("th", has_text="Start age")).first
        assert row.locator('td[data-label="ACS"] strong').all_text_contents() == ["45 (individual decision from 40)"]
        assert page.evaluate("typeof window.__xss") == "undefined"
        assert XSS in page.locator("#asked").inner_text() and XSS in page.locator(".card h3").first.inner_text()
        assert page.locator("#results img").count() == 0
        assert requests == [path.as_uri()]  # nothing fetched but the file itself
        assert errors == []
        browser.close()
