"""A local stand-in for NCBI E-utilities and NIH iCite, for tests: a real HTTP server on a free loopback port
that answers in the services' own formats from hand-written fixtures (tests/fixtures/pubmed)."""

from __future__ import annotations

import json
import threading
import urllib.parse
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "pubmed"
XML_HEAD = (
    '<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" '
    '"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">\n'
)


def fixture_articles() -> dict[str, str]:
    """PMID -> serialized article element, from the fixture article set."""
    root = ET.parse(FIXTURES / "efetch_articles.xml").getroot()
    out = {}
    for elem in root:
        pmid = elem.findtext("MedlineCitation/PMID") or elem.findtext("BookDocument/PMID")
        if pmid:
            out[pmid] = ET.tostring(elem, encoding="unicode")
    return out


@dataclass
class FakeNCBI:
    """Searches map a term to the fixture ESearch JSON; every request is logged for assertions."""

    searches: dict[str, str] = field(default_factory=lambda: {"fixturol": "esearch_fixturol.json",
                                                               "bad query": "esearch_error.json"})
    fail_first: int = 0  # answer this many requests with 429 before serving
    requests: list[tuple[str, str, dict]] = field(default_factory=list)
    url: str = ""

    def handle(self, method: str, path: str, params: dict[str, str]) -> tuple[int, str, bytes]:
        self.requests.append((method, path, params))
        if self.fail_first > 0:
            self.fail_first -= 1
            return 429, "application/json", b'{"error":"API rate limit exceeded","count":"4"}'
        articles = fixture_articles()
        if path.endswith("/esearch.fcgi"):
            name = self.searches.get(params.get("term", ""))
            if name is None:
                body = {"header": {"type": "esearch"}, "esearchresult": {
                    "count": "0", "retmax": "0", "retstart": "0", "idlist": [], "translationset": []}}
                return 200, "application/json", json.dumps(body).encode()
            payload = json.loads((FIXTURES / name).read_text())
            result = payload["esearchresult"]
            if "idlist" in result:
                start, size = int(params.get("retstart", 0)), int(params.get("retmax", 20))
                result["idlist"] = result["idlist"][start:start + size]
                if params.get("usehistory") != "y":
                    result.pop("webenv", None)
                    result.pop("querykey", None)
            return 200, "application/json", json.dumps(payload).encode()
        if path.endswith("/efetch.fcgi"):
            if "id" in params:
                ids = params["id"].split(",")
            else:
                listing = json.loads((FIXTURES / "esearch_fixturol.json").read_text())["esearchresult"]
                if params.get("WebEnv") != listing["webenv"] or params.get("query_key") != listing["querykey"]:
                    return 400, "text/xml", b"<eFetchResult><ERROR>Unable to obtain query #1</ERROR></eFetchResult>"
                start, size = int(params.get("retstart", 0)), int(params.get("retmax", 20))
                ids = listing["idlist"][start:start + size]
            found = "\n".join(articles[i] for i in ids if i in articles)
            body = XML_HEAD + "<PubmedArticleSet>\n" + found + "\n</PubmedArticleSet>\n"
            return 200, "text/xml", body.encode()
        if path.endswith("/api/pubs"):
            wanted = set(params.get("pmids", "").split(","))
            payload = json.loads((FIXTURES / "icite_pubs.json").read_text())
            payload["data"] = [d for d in payload["data"] if str(d["pmid"]) in wanted]
            return 200, "application/json", json.dumps(payload).encode()
        return 404, "text/plain", b"not found"


@contextmanager
def serve(fake: FakeNCBI | None = None):
    """Run ``fake`` on 127.0.0.1 on a free port; yields it with ``url`` set."""
    fake = fake or FakeNCBI()

    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str, params: dict[str, str]) -> None:
            status, ctype, body = fake.handle(method, urllib.parse.urlsplit(self.path).path, params)
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            if status == 429:
                self.send_header("Retry-After", "0")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):  # noqa: N802
            query = urllib.parse.urlsplit(self.path).query
            self._reply("GET", dict(urllib.parse.parse_qsl(query)))

        def do_POST(self):  # noqa: N802
            length = int(self.headers.get("Content-Length", 0))
            self._reply("POST", dict(urllib.parse.parse_qsl(self.rfile.read(length).decode())))

        def log_message(self, *args):  # keep test output clean
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
