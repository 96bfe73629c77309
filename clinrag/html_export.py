"""One result as a self-contained HTML file: the web page's evidence map, tables, answer and cards, offline.

The page's own CSS (``server/static/style.css``) and renderer (``server/static/render.js``) are inlined; the result
and the corpus documents of its topics are embedded as JSON in a ``<script type="application/json">`` tag, which a
short inline script hands to the renderer. Nothing is loaded from anywhere, and the Content-Security-Policy allows
only these inline scripts and style (by hash). Data is only ever rendered as text (see render.js).

``clinrag ask --html PATH "question"`` writes one (see :func:`write_html`).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import html
import json
import re
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "server" / "static"
"""Where the page's style.css and render.js live."""
MAP_FIELDS = ("doc_id", "org", "title", "topic", "issued", "year", "status", "supersedes", "superseded_by",
              "source_type")
"""The corpus fields the evidence map draws (the same as ``GET /api/corpus``)."""

BOOT = """(function () {
  "use strict";
  // the embedded result and corpus documents, drawn by render.js exactly as on the live page
  var data = JSON.parse(document.getElementById("clinrag-data").textContent);
  document.getElementById("asked").textContent = "Question: " + data.result.question;
  window.ClinragRender.renderResult(data.result, data.corpus, null);
  var link = document.getElementById("download");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(data.result, null, 2)], {type: "application/json"}));
})();
"""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="generator" content="clinrag">
<title>clinrag: {title}</title>
<style>{css}</style>
</head>
<body>
<header class="top">
  <h1>clinrag <span>evidence map</span></h1>
  <p class="tagline">Exported {exported}. What each organization says, when it said it, whether it still stands, and
  where they differ.</p>
</header>
<main>
  <div id="results" class="results">
    <p id="asked" class="asked"></p>
    <div id="banner"></div>
    <section class="panel" aria-labelledby="map-h"><h2 id="map-h">Evidence map</h2><div id="map"></div></section>
    <section class="panel" aria-labelledby="differ-h"><h2 id="differ-h">Where they differ</h2><div id="differ"></div>
    </section>
    <section class="panel" aria-labelledby="answer-h"><h2 id="answer-h">Answer</h2>
      <div id="answer" class="answer"></div></section>
    <section class="panel" aria-labelledby="cards-h"><h2 id="cards-h">Evidence</h2>
      <div id="cards" class="cards"></div></section>
    <p><a id="download" class="button-link" href="#" download="clinrag-result.json">Download JSON</a></p>
  </div>
  <noscript><p>This file draws its evidence map with JavaScript; the result is embedded as JSON in its
  source.</p></noscript>
</main>
<footer class="notice" role="note">
  <strong>Not medical advice.</strong> clinrag summarizes published guidance for information only; decisions about
  your care belong with a clinician who knows your history. In an emergency call your local emergency number.
</footer>
<script type="application/json" id="clinrag-data">{data}</script>
<script>{render_js}</script>
<script>{boot_js}</script>
</body>
</html>
"""


def _plain(value):
    """JSON-ready: dates as ISO strings, pydantic models as dicts."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, dt.date):
        return value.isoformat()
    raise TypeError(f"cannot embed {type(value).__name__} as JSON")


def embed_json(data: object) -> str:
    """JSON safe inside a <script> element: '<', '>' and '&' escaped, so no text can close the element."""
    text = json.dumps(data, ensure_ascii=False, default=_plain)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _inline_script(source: str) -> str:
    """Script text that cannot end its <script> element early (only possible inside a string or comment)."""
    return re.sub(r"</(script)", r"<\\/\1", source, flags=re.I).replace("<!--", "<\\!--")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def map_documents(result: dict, corpus_docs: list) -> list[dict]:
    """The corpus documents the map draws: those on the topic(s) of the evidence (all the evidence's own documents
    for a corpus without topics), reduced to the fields the map uses."""
    docs = [d.model_dump(mode="json") if hasattr(d, "model_dump") else dict(d) for d in corpus_docs]
    used = {e["doc_id"] for e in result.get("evidence") or []}
    topics = {d.get("topic") for d in docs if d.get("doc_id") in used and d.get("topic")}
    keep = [d for d in docs if d.get("doc_id") in used or (topics and d.get("topic") in topics)]
    return [{f: d.get(f) for f in MAP_FIELDS} for d in keep]


def render_html(result, corpus_docs: list[dict]) -> str:
    """One self-contained HTML page drawing ``result`` (an AskResult or its JSON dict) with the web page's evidence
    map; ``corpus_docs``: corpus records (dicts or Documents), of which those on the evidence's topics are drawn."""
    data = result.model_dump(mode="json") if hasattr(result, "model_dump") else dict(result)
    css = (STATIC_DIR / "style.css").read_text(encoding="utf-8")
    render_js = _inline_script((STATIC_DIR / "render.js").read_text(encoding="utf-8"))
    css = re.sub(r"</(style)", r"<\\/\1", css, flags=re.I)
    csp = (f"default-src 'none'; script-src {_csp_hash(render_js)} {_csp_hash(BOOT)}; style-src {_csp_hash(css)}; "
           "img-src data: blob:; base-uri 'none'; form-action 'none'")
    embedded = embed_json({"result": data, "corpus": map_documents(data, corpus_docs)})
    return PAGE.format(csp=csp, title=html.escape(data.get("question", ""), quote=True), css=css,
                       exported=dt.date.today().isoformat(), data=embedded, render_js=render_js, boot_js=BOOT)


def write_html(path: str | Path, result, corpus_path: str | Path | None = None) -> Path:
    """Write :func:`render_html` of ``result`` to ``path``, drawing the documents of the corpus at ``corpus_path``
    (default: the built-in guideline corpus)."""
    from clinrag.documents import load_documents

    docs = load_documents(corpus_path) if corpus_path else load_documents()
    path = Path(path)
    path.write_text(render_html(result, docs), encoding="utf-8")
    return path
