"""PubMed XML (EFetch ``retmode=xml``) to records: pmid, title, abstract with section labels, year, journal, MeSH.

Handles ``PubmedArticle`` (journal articles) and ``PubmedBookArticle`` (books and documents). Structured
abstracts keep their labels ("BACKGROUND: ..."); inline markup in titles and abstracts (<i>, <sup>...) is
flattened to text. The year comes from the journal issue's ``PubDate`` (``Year``, else the first year in
``MedlineDate`` such as "1998 Dec-1999 Jan"), else the electronic ``ArticleDate``, else the book's date.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from pydantic import BaseModel, Field

_YEAR = re.compile(r"\b(1[89]\d{2}|20\d{2})\b")


class PubMedRecord(BaseModel):
    pmid: str = Field(pattern=r"^\d+$")
    title: str
    abstract: str = Field(description="Abstract text; structured abstracts as 'LABEL: text' paragraphs.")
    sections: list[tuple[str | None, str]] = Field(default_factory=list, description="(label, text) per AbstractText.")
    year: int | None = None
    journal: str | None = None
    journal_abbrev: str | None = None
    mesh: list[str] = Field(default_factory=list)
    relevance_rank: int | None = Field(default=None, description="Position in the ESearch result (0 = first).")
    citation_count: int | None = None


@dataclass
class ParseReport:
    """What happened to every article element in the XML."""

    articles: int = 0  # PubmedArticle + PubmedBookArticle elements seen
    parsed: int = 0  # turned into a record (with or without abstract)
    no_abstract: int = 0  # parsed but dropped: no abstract text
    failed: int = 0  # element without a usable PMID or title
    duplicates: int = 0  # PMIDs seen before (in this or an earlier batch)

    @property
    def parse_rate(self) -> float:
        return self.parsed / self.articles if self.articles else 0.0

    def add(self, other: ParseReport) -> None:
        for name in ("articles", "parsed", "no_abstract", "failed", "duplicates"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def _text(elem: ET.Element | None) -> str:
    return " ".join("".join(elem.itertext()).split()) if elem is not None else ""


def _year(*dates: ET.Element | None) -> int | None:
    for date in dates:
        if date is None:
            continue
        year = date.findtext("Year")
        if year and year.strip().isdigit():
            return int(year)
        match = _YEAR.search(date.findtext("MedlineDate") or "")
        if match:
            return int(match.group(1))
    return None


def _abstract(abstract: ET.Element | None) -> list[tuple[str | None, str]]:
    if abstract is None:
        return []
    sections = []
    for part in abstract.findall("AbstractText"):
        text = _text(part)
        if text:
            label = part.get("Label") or None
            sections.append((label.strip().upper() if label else None, text))
    return sections


def format_abstract(sections: list[tuple[str | None, str]]) -> str:
    return "\n".join(f"{label}: {text}" if label else text for label, text in sections)


def _record(elem: ET.Element) -> PubMedRecord | None:
    if elem.tag == "PubmedArticle":
        citation = elem.find("MedlineCitation")
        if citation is None:
            return None
        pmid = (citation.findtext("PMID") or "").strip()
        article = citation.find("Article")
        if article is None:
            return None
        title = _text(article.find("ArticleTitle")) or _text(article.find("VernacularTitle"))
        journal = article.find("Journal")
        sections = _abstract(article.find("Abstract"))
        year = _year(
            journal.find("JournalIssue/PubDate") if journal is not None else None,
            article.find("ArticleDate"),
            citation.find("DateCompleted"),
        )
        mesh = [_text(d) for d in citation.findall("MeshHeadingList/MeshHeading/DescriptorName")]
        journal_title = _text(journal.find("Title")) if journal is not None else ""
        journal_abbrev = _text(journal.find("ISOAbbreviation")) if journal is not None else ""
    elif elem.tag == "PubmedBookArticle":
        book_doc = elem.find("BookDocument")
        if book_doc is None:
            return None
        pmid = (book_doc.findtext("PMID") or "").strip()
        title = _text(book_doc.find("ArticleTitle")) or _text(book_doc.find("Book/BookTitle"))
        sections = _abstract(book_doc.find("Abstract"))
        year = _year(book_doc.find("Book/PubDate"), book_doc.find("ContributionDate"))
        mesh = []
        journal_title = _text(book_doc.find("Book/Publisher/PublisherName"))
        journal_abbrev = ""
    else:
        return None
    if not pmid.isdigit() or not title:
        return None
    return PubMedRecord(
        pmid=pmid, title=title, abstract=format_abstract(sections), sections=sections, year=year,
        journal=journal_title or None, journal_abbrev=journal_abbrev or None, mesh=[m for m in mesh if m],
    )


def parse_pubmed_xml(xml: bytes | str, seen: set[str] | None = None) -> tuple[list[PubMedRecord], ParseReport]:
    """Records with an abstract, first occurrence of each PMID only (``seen`` carries PMIDs across batches)."""
    root = ET.fromstring(xml)
    seen = set() if seen is None else seen
    report = ParseReport()
    records = []
    for elem in root:
        if elem.tag not in ("PubmedArticle", "PubmedBookArticle"):
            continue
        report.articles += 1
        record = _record(elem)
        if record is None:
            report.failed += 1
            continue
        report.parsed += 1
        if not record.abstract:
            report.no_abstract += 1
            continue
        if record.pmid in seen:
            report.duplicates += 1
            continue
        seen.add(record.pmid)
        records.append(record)
    return records, report
