"""The web page (``clinrag serve``, ``clinrag/server/static/``) in a real headless Chromium: what a person sees.

Needs Debian's ``chromium`` (``apt-get install -y chromium chromium-driver``) and the ``playwright`` Python package;
Playwright drives the system browser (``executable_path``), its own browser downloads are never used. The server is
``clinrag serve`` on a free loopback port over the test session's index (until the command exists, the same app
through uvicorn's factory). Screenshots go to ``test-artifacts/``; two of them also to ``docs/img/`` for the README.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need `pip install playwright`")
CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("the browser tests need Debian's chromium: apt-get install -y chromium chromium-driver",
                allow_module_level=True)

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
DOCS_IMG = ROOT / "docs" / "img"
CLINRAG = Path(sys.executable).parent / "clinrag"
STATIC = ROOT / "clinrag" / "server" / "static"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
MAMMOGRAPHY = "When should average-risk women start mammography, and do the organizations agree?"
CHEST_PAIN = "I have crushing chest pain right now. Should I take an aspirin?"
TOOTHBRUSH = "How often should I replace my toothbrush?"
PROSTATE = "What does the USPSTF recommend for prostate cancer screening?"
XSS = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'
STEPS = ["scope", "hypotheses", "retrieve", "contradictions", "support", "answer"]
# records, in the page, the order in which the steps finish (to check they appear as the graph runs)
STEP_RECORDER = """
window.__stepLog = [];
new MutationObserver(function (records) {
  records.forEach(function (r) {
    var li = r.target;
    if (li.id && li.id.indexOf("step-") === 0 && /\\b(done|stopped)\\b/.test(li.className)
        && window.__stepLog.indexOf(li.id) < 0) window.__stepLog.push(li.id);
  });
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["class"]});
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def has_serve_command() -> bool:
    from clinrag.cli.main import build_parser

    parser = build_parser()
    return any("serve" in (getattr(a, "choices", None) or {}) for a in parser._actions)


@contextmanager
def running_server(tmp: Path) -> Iterator[str]:
    """``clinrag serve`` on a free loopback port (its own thread store); yields the base URL."""
    port = free_port()
    env = {**{k: v for k, v in os.environ.items() if k not in ("CLINRAG_API_TOKEN", "CLINRAG_RATE_LIMIT")},
           "CLINRAG_CHAT_DB": str(tmp / "threads.sqlite")}
    if has_serve_command():
        command = [str(CLINRAG), "serve", "--port", str(port), "--db", str(tmp / "threads.sqlite")]
    else:  # until `clinrag serve` is registered: the same app through uvicorn's factory
        pytest.importorskip("clinrag.server.app", reason="the server (clinrag/server/app.py) is not there yet")
        command = [sys.executable, "-m", "uvicorn", "clinrag.server.app:create_app", "--factory",
                   "--host", "127.0.0.1", "--port", str(port)]
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                log_tail = (tmp / "server.log").read_text()[-2000:]
                raise AssertionError(f"the server exited ({proc.returncode}): {log_tail}")
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the server did not answer /healthz within 180 s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def server(guideline_index, tmp_path_factory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("page")) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page_at(browser, server):
    """page_at(width, height, **context options) -> a fresh page on the app, recording page errors and steps."""
    contexts = []

    def open_page(width: int = 1280, height: int = 800, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True, **options)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.add_init_script(STEP_RECORDER)
        page.goto(server + "/")
        return page

    yield open_page
    for c in contexts:
        c.close()


def ask(page, question: str, box: str = "#question") -> None:
    """Type a question, press Enter, wait until the answer step has finished (answered or abstained)."""
    page.fill(box, question)
    page.press(box, "Enter")
    page.wait_for_selector("#step-answer.done, #step-answer.stopped", timeout=120_000)


def shot(page, name: str, *, docs: str | None = None, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=full_page, scale="css")
    if docs:
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS_IMG / docs))


def test_answer_draws_lanes_disagreements_and_linked_citations(page_at):
    page = page_at(1280, 800)
    ask(page, MAMMOGRAPHY)
    # the graph's steps finished in the graph's order, and the map was drawn before the result arrived
    assert page.evaluate("window.__stepLog") == [f"step-{s}" for s in STEPS]
    assert all(page.get_attribute(f"#step-{s}", "class") == "step done" for s in STEPS)
    timing = page.evaluate("window.__clinragTiming")
    assert 0 < timing["map_ms"] <= timing["result_ms"]
    # one lane per organization; every breast-screening version on the time axis; the old ones labelled
    lanes = page.locator("svg.evmap text.org").all_text_contents()
    assert {"ACS", "USPSTF", "ACOG", "ACR"} <= set(lanes)
    marks = set(page.eval_on_selector_all("svg.evmap [data-doc]", "ns => ns.map(n => n.dataset.doc)"))
    assert {"uspstf-breast-2016", "uspstf-breast-2024", "acog-breast-2017", "acog-breast-2024"} <= marks
    labels = page.locator("svg.evmap text.sup").all_text_contents()
    assert "superseded by uspstf-breast-2024" in labels and "superseded by acog-breast-2024" in labels
    assert page.locator('svg.evmap .mark.superseded[data-doc="uspstf-breast-2016"]').count() == 1
    used = set(page.eval_on_selector_all("svg.evmap .mark.used", "ns => ns.map(n => n.dataset.doc)"))
    cited = page.eval_on_selector_all(".card .card-cite", "ns => ns.map(n => n.textContent.split(']')[0].slice(1))")
    assert used == set(cited)  # the ringed marks are exactly the documents of the evidence cards
    assert page.locator("svg.evmap line.version").count() >= 2  # versions joined
    # the disagreement table: the Start age row, ACS 45 against USPSTF 40
    row = page.locator("#differ tbody tr", has=page.locator("th", has_text="Start age")).first
    assert row.locator('td[data-label="ACS"] strong').all_text_contents() == ["45 (individual decision from 40)"]
    assert row.locator('td[data-label="USPSTF"] strong').all_text_contents() == ["40"]
    assert "grade B" in row.locator('td[data-label="USPSTF"]').inner_text()
    # citations in the answer are links that take the reader (and keyboard focus) to the card
    cite = page.locator("#answer a.cite", has_text="[acs-breast-2015]").first
    cite.click()
    focused = page.evaluate("document.activeElement.className + ' ' + document.activeElement.textContent")
    assert focused.startswith("card") and "[acs-breast-2015]" in focused
    # the notice is on screen, the download link carries the result
    assert page.locator("footer.notice").is_visible()
    box = page.locator("footer.notice").bounding_box()
    assert box["y"] + box["height"] <= 800 + 1
    with page.expect_download() as download:
        page.click("#download")
    downloaded = json.loads(Path(download.value.path()).read_text())
    assert downloaded["question"] == MAMMOGRAPHY and downloaded["decision"] == "answer"
    assert page.errors == []
    page.evaluate("window.scrollTo(0, 0)")  # the top: question, steps and the map in one 1280x800 view
    shot(page, "answer-1280x800.png", docs="evidence-map-answer.png")
    shot(page, "answer-1280-full.png", full_page=True)
    weight = sum((STATIC / f).stat().st_size for f in ("index.html", "app.js", "render.js", "style.css"))
    (ARTIFACTS / "page-metrics.json").write_text(json.dumps({"page_bytes": weight, **timing}, indent=2))


def test_out_of_scope_emergency_is_an_abstention_banner(page_at):
    page = page_at(1280, 800)
    ask(page, CHEST_PAIN)
    banner = page.locator(".banner.scope")
    assert banner.is_visible()
    assert "outside this corpus's scope" in banner.locator("h2").inner_text()
    urgent = banner.locator(".urgent").inner_text()
    assert "emergency" in urgent.lower() and "911" in urgent
    assert page.get_attribute("#step-scope", "class") == "step stopped"
    assert page.get_attribute("#step-retrieve", "class") == "step skipped"
    assert page.locator("#answer").inner_text().strip()  # never an empty answer area
    assert page.locator("footer.notice").is_visible()
    shot(page, "abstain-1280x800.png", docs="evidence-map-abstain.png")


def test_insufficient_support_shows_the_score_beside_the_threshold(page_at):
    page = page_at(1280, 800)
    ask(page, TOOTHBRUSH)
    banner = page.locator(".banner.support")
    text = banner.inner_text()
    assert "does not support an answer" in text
    assert "is below the threshold" in banner.locator(".gauge-text").inner_text()
    assert page.get_attribute("#step-support", "class") == "step stopped"
    assert "Retrieved but not used" in page.locator("#map").inner_text()
    shot(page, "insufficient-1280x800.png")


def graph_runs(calls: list[tuple[str, str]]) -> list[str]:
    """The API calls of ``calls`` that run the graph (every other API call is cheap)."""
    return [path for method, path in calls if method == "POST" and path.startswith("api/") and "/ask" in path]


def test_follow_up_streams_into_the_thread_with_one_graph_run_per_question(page_at):
    page = page_at(1280, 800)
    calls = []
    page.on("request", lambda r: calls.append((r.method, r.url.split("/", 3)[3])))
    ask(page, PROSTATE)
    assert [c for c in calls if c[0] == "POST"][0] == ("POST", "api/threads")  # the first question makes the thread
    (first,) = graph_runs(calls)
    assert first.startswith("api/threads/") and first.endswith("/ask/stream")
    page.fill("#follow", "and what about ACS?")
    page.press("#follow", "Enter")
    page.locator("#turns li").nth(1).wait_for(timeout=120_000)  # the second turn of the thread is listed
    page.wait_for_selector("#step-answer.done, #step-answer.stopped", timeout=120_000)
    asked = page.locator("#asked").inner_text()
    assert "read as" in asked and "prostate" in asked.lower() and "ACS" in asked
    assert graph_runs(calls) == [first, first]  # the follow-up streamed into the same thread; nothing re-sent
    assert calls.count(("POST", "api/threads")) == 1
    assert all(page.get_attribute(f"#step-{s}", "class") == "step done" for s in STEPS)  # streamed steps again
    assert "ACS" in page.locator("svg.evmap text.org").all_text_contents()
    assert page.errors == []


def test_the_map_is_redrawn_when_the_window_is_resized(page_at):
    page = page_at(1280, 800)
    ask(page, MAMMOGRAPHY)
    wide = float(page.get_attribute("svg.evmap", "width"))
    page.set_viewport_size({"width": 800, "height": 800})
    width = "() => parseFloat(document.querySelector('svg.evmap').getAttribute('width'))"
    page.wait_for_function(f"w => ({width})() < w", arg=wide, timeout=5_000)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function(f"w => ({width})() === w", arg=wide, timeout=5_000)
    assert page.locator("svg.evmap .mark.used").count() > 0 and page.errors == []


def test_keyboard_reaches_the_map_and_opens_a_card(page_at):
    page = page_at(1280, 800)
    page.keyboard.press("Tab")  # skip link
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "question"
    page.keyboard.type(MAMMOGRAPHY)
    page.keyboard.press("Enter")
    page.wait_for_selector("#step-answer.done", timeout=120_000)
    assert page.evaluate("document.activeElement.id") in ("question", "ask-button")
    for _ in range(20):  # on through the button and the map's scroll area to the first evidence mark
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.namespaceURI.endsWith('svg')"):
            break
    doc = page.evaluate("document.activeElement.querySelector('[data-doc]').dataset.doc")
    outline = page.evaluate("getComputedStyle(document.activeElement.querySelector('circle')).strokeWidth")
    assert outline == "5px"  # the focus ring of a mark
    page.keyboard.press("Enter")
    assert f"[{doc}]" in page.evaluate("document.activeElement.textContent")
    assert page.evaluate("[...document.querySelectorAll('#ask-button, #follow-button')].map(b => b.tagName)") == [
        "BUTTON", "BUTTON"]


def test_markup_in_questions_and_passages_is_shown_as_text(page_at):
    """Question and passages carrying <script> and <img onerror>: nothing runs, the markup reads literally. The page's
    Content-Security-Policy would block inline handlers anyway, so it is bypassed here to test the rendering."""
    page = page_at(1280, 800, bypass_csp=True)

    def poison_stream(route):
        response = route.fetch()
        blocks = response.text().split("\n\n")
        for i, block in enumerate(blocks):
            if block.startswith("event: result"):
                result = json.loads(block.split("data: ", 1)[1])
                for e in result["evidence"]:
                    e["text"] = XSS + " " + e["text"]
                    e["title"] = XSS
                result["disagreements"][0]["values"][0]["value"] = XSS
                result["answer"] = XSS + "\n" + result["answer"]
                result["contradictions"].append({"doc_a": XSS, "doc_b": "x", "score": 0.9, "sentence_a": XSS,
                                                 "sentence_b": XSS, "basis": "nli"})
                blocks[i] = "event: result\ndata: " + json.dumps(result)
        route.fulfill(response=response, body="\n\n".join(blocks))

    def poison_corpus(route):
        response = route.fetch()
        body = response.json()
        docs = body["documents"] if isinstance(body, dict) else body
        for d in docs:
            d["org"] = d["org"] if d["topic"] != "breast-cancer-screening" else d["org"] + XSS
        route.fulfill(response=response, json=body)

    page.route("**/ask/stream", poison_stream)
    page.route("**/api/corpus", poison_corpus)
    ask(page, MAMMOGRAPHY + " " + XSS)
    page.wait_for_selector("svg.evmap")
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert page.locator("#results img").count() == 0
    assert page.evaluate("document.querySelectorAll('script').length") == 2  # render.js and app.js only
    assert XSS in page.locator("#asked").inner_text()
    assert XSS in page.locator(".card blockquote").first.inner_text()
    assert XSS in page.locator(".card h3").first.inner_text()
    assert XSS in page.locator("#answer").inner_text()
    assert XSS in page.locator("#differ").inner_text()
    assert any(XSS in t for t in page.locator("svg.evmap text.org").all_text_contents())
    assert page.errors == []


def test_390_px_wide_nothing_overflows_but_the_map(page_at):
    page = page_at(390, 844, device_scale_factor=2, is_mobile=True, has_touch=True)
    ask(page, MAMMOGRAPHY)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    outside = page.evaluate("""() => [...document.body.querySelectorAll('*')]
        .filter(n => !n.closest('.map-scroll') && n.getBoundingClientRect().right > window.innerWidth + 1)
        .map(n => n.tagName + '.' + n.className)""")
    assert outside == []
    scroller = page.locator(".map-scroll")
    assert scroller.bounding_box()["x"] + scroller.bounding_box()["width"] <= 390
    assert page.evaluate("(s => s.scrollWidth > s.clientWidth)(document.querySelector('.map-scroll'))")
    shot(page, "answer-390.png", full_page=True)


def test_a_server_with_an_access_token(browser, guideline_index, tmp_path):
    """Opened as /?token=...: the token is kept for the tab and taken out of the address bar; a tab without it is
    asked for it after the first 401 and goes on once it is typed in."""
    from test_serve import uvicorn_thread

    from clinrag.server.app import create_app
    from clinrag.server.security import AccessSettings

    token = "page-test-token"
    app = create_app(chat_db=tmp_path / "threads.sqlite", access=AccessSettings(token=token))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        with uvicorn_thread(app) as url:
            page = context.new_page()
            page.goto(f"{url}/?token={token}")
            assert page.url == f"{url}/"
            assert page.evaluate("sessionStorage.getItem('clinrag-token')") == token
            ask(page, PROSTATE)
            assert page.locator("#step-answer.done").count() == 1 and page.locator("#token-form").is_hidden()

            other = context.new_page()  # sessionStorage is per tab: this one has no token
            other.goto(f"{url}/")
            other.fill("#question", PROSTATE)
            other.press("#question", "Enter")
            other.wait_for_selector("#token-form", state="visible", timeout=30_000)
            assert "access token" in other.locator("#error").inner_text()
            other.fill("#token", token)
            other.press("#token", "Enter")
            assert other.locator("#token-form").is_hidden() and other.locator("#error").is_hidden()
            ask(other, PROSTATE)
            assert other.locator("#step-answer.done").count() == 1
    finally:
        context.close()
