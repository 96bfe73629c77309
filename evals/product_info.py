"""Ground truth for the drug-information benchmark: product information mapped onto the six consumer questions.

Sources, read at run time from the data directory (the texts are not ours to commit):

* DailyMed SPL XML (``dailymed_spl_samples/xml``): sections by LOINC code. Indications 34067-9; pre-use
  warnings: contraindications 34070-3 and the boxed warning 34066-1 (OTC: "do not use" 50570-1, "ask a doctor"
  50569-3); interactions 34073-7 (OTC: "ask a doctor or pharmacist" 50568-5); dosage 34068-7; while under
  treatment: warnings and precautions 43685-7, warnings 34071-1, precautions 42232-9 (OTC: "when using"
  50567-7, "stop use" 50566-9); adverse effects 34084-4. Highlights excerpts are left out (they repeat the
  section), and so is a nested section that is itself mapped (it counts once, under its own question).
* Package leaflets (``epi_leaflets``): EMA leaflets, one Health Canada PMI and the TGA Paxlovid CMI, mapped
  section by section by their headings. The EMA section "What you need to know before you take X" holds
  three questions; it is split at its sub-headings: "Other medicines and X" -> interactions; pregnancy,
  breast-feeding, fertility, driving and "X with food/drink/alcohol" -> while under treatment; the rest
  (do not take, warnings and precautions, children, excipients) -> pre-use warnings. "How to store X" goes to
  while under treatment, as in the TGA CMI ("Looking after your medicine").
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, Field

from clinrag.pubmed.queries import CONSUMER_QUESTIONS

QUESTION_KEYS = [q.key for q in CONSUMER_QUESTIONS]
_V3 = "{urn:hl7-org:v3}"

SPL_SECTIONS: dict[str, str] = {
    "34067-9": "indications",
    "34070-3": "pre_use_warnings", "34066-1": "pre_use_warnings", "50570-1": "pre_use_warnings",
    "50569-3": "pre_use_warnings",
    "34073-7": "interactions", "50568-5": "interactions",
    "34068-7": "dosage",
    "43685-7": "during_treatment", "34071-1": "during_treatment", "42232-9": "during_treatment",
    "50567-7": "during_treatment", "50566-9": "during_treatment",
    "34084-4": "adverse_effects",
}


class ProductInfo(BaseModel):
    """One medicine's ground truth: the answer text per question key, with where it came from."""

    product: str  # dataset key: SPL set id or leaflet product slug
    name: str
    active: list[str]
    source: str  # dailymed_spl | epi_leaflet
    jurisdiction: str
    doc_id: str  # the id this document would have in a corpus (never retrievable for its own questions)
    answers: dict[str, str] = Field(default_factory=dict)
    sections: dict[str, list[str]] = Field(default_factory=dict)  # question key -> section names used

    @property
    def medicine(self) -> str:
        """How questions name it: the product, with its active substances when they differ."""
        active = " and ".join(self.active)
        return self.name if active.lower() in self.name.lower() else f"{self.name} ({active})"


# ---------------------------------------------------------------------------------------------- SPL

def _flat(text: str) -> str:
    return " ".join(text.split())


def _section_text(section: ET.Element, top: bool = True) -> str:
    parts: list[str] = []
    for child in section:
        tag = child.tag.removeprefix(_V3)
        if tag in ("excerpt", "id", "code", "effectiveTime") or (tag == "title" and top):
            continue
        if tag == "component":
            nested = child.find(f"{_V3}section")
            if nested is not None:
                code = nested.find(f"{_V3}code")
                if code is None or code.get("code") not in SPL_SECTIONS:
                    parts.append(_section_text(nested, top=False))
            continue
        parts.append(_flat(" ".join(child.itertext())))
    return _flat(" ".join(p for p in parts if p))


def parse_spl(path: Path) -> ProductInfo:
    root = ET.parse(path).getroot()
    set_id = root.find(f"{_V3}setId").get("root")
    names = []
    for product in root.iter(f"{_V3}manufacturedProduct"):
        name = product.findtext(f"{_V3}name")
        if name and name.strip() not in names:
            names.append(name.strip())
    active = []
    for ing in root.iter(f"{_V3}ingredient"):
        if ing.get("classCode", "").startswith("ACT"):
            moiety = ing.findtext(f"{_V3}ingredientSubstance/{_V3}activeMoiety/{_V3}activeMoiety/{_V3}name")
            substance = ing.findtext(f"{_V3}ingredientSubstance/{_V3}name")
            name = (moiety or substance or "").strip().lower()
            if name and name not in active:
                active.append(name)
    answers: dict[str, list[str]] = defaultdict(list)
    used: dict[str, list[str]] = defaultdict(list)
    for section in root.iter(f"{_V3}section"):
        code = section.find(f"{_V3}code")
        key = SPL_SECTIONS.get(code.get("code")) if code is not None else None
        if key:
            text = _section_text(section)
            if text:
                answers[key].append(text)
                used[key].append(f"LOINC {code.get('code')} {code.get('displayName', '').strip()}")
    return ProductInfo(
        product=set_id, name=names[0] if names else path.stem, active=active, source="dailymed_spl",
        jurisdiction="US (FDA SPL)", doc_id=f"spl:{set_id}", answers={k: "\n".join(v) for k, v in answers.items()},
        sections=dict(used),
    )


# ---------------------------------------------------------------------------------------------- leaflets

_TITLE_KEYS = [
    (re.compile(r"what .* is and what it is used for|why am i (taking|using|being given)|^about this medication", re.I),
     "indications"),
    (re.compile(r"what you need to know before|what should i know before|^warnings and precautions$", re.I),
     "pre_use_warnings"),
    (re.compile(r"what if i am taking other medicines|^interactions with this medication", re.I), "interactions"),
    (re.compile(r"how (to|do i) (take|use)|^proper use of this medication", re.I), "dosage"),
    (re.compile(r"what should i know while|how to store|^how to store it$", re.I), "during_treatment"),
    (re.compile(r"possible side effects|are there any side effects|^side effects and what to do", re.I),
     "adverse_effects"),
]
_EMA_SPLIT_TITLE = re.compile(r"what you need to know before", re.I)
_SUBHEADINGS = [
    (re.compile(r"^(other medicines|taking other medicines|using other medicines|are you taking other medicines|"
                r".{0,60}\bwith other medicines)", re.I), "interactions"),
    (re.compile(r"^(pregnancy|breast-?feeding|fertility|driving|will there be any problems with driving|"
                r".{0,60}\bwith (food|drink|alcohol)|.{0,60}\b(food|drink),? and (drink|alcohol))", re.I),
     "during_treatment"),
    (re.compile(r"^(do not take|do not use|warnings? and precautions|children|.{0,60}\bcontains\b|"
                r"information about sodium)", re.I), "pre_use_warnings"),
]


def title_key(title: str) -> str | None:
    clean = re.sub(r"^\s*\d+\.\s*", "", title).strip()
    for pattern, key in _TITLE_KEYS:
        if pattern.search(clean):
            return key
    return None


def split_before_use(text: str) -> dict[str, str]:
    """Split the EMA "before you take" section at its sub-headings (short lines that name a topic)."""
    out: dict[str, list[str]] = defaultdict(list)
    key = "pre_use_warnings"
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if len(stripped.split()) <= 10:
            for pattern, sub_key in _SUBHEADINGS:
                if pattern.search(stripped):
                    key = sub_key
                    break
        out[key].append(stripped)
    return {k: "\n".join(v) for k, v in out.items()}


def load_medicines_table() -> dict[str, dict]:
    table = resources.files("clinrag.evals") / "data" / "drug_info_medicines.yaml"
    return yaml.safe_load(table.read_text(encoding="utf-8"))


def parse_leaflets(path: Path) -> list[ProductInfo]:
    table = load_medicines_table()
    sections: dict[str, dict[str, str]] = defaultdict(dict)  # product -> title -> longest text
    jurisdiction: dict[str, str] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row["product"] not in table:
                continue
            title = " ".join(row["section_title"].split())
            jurisdiction[row["product"]] = row.get("jurisdiction", "")
            if len(row["text"]) > len(sections[row["product"]].get(title, "")):
                sections[row["product"]][title] = row["text"]  # the TGA CMI repeats its headings in a summary
    products = []
    for product, by_title in sections.items():
        answers: dict[str, list[str]] = defaultdict(list)
        used: dict[str, list[str]] = defaultdict(list)
        for title, text in by_title.items():
            key = title_key(title)
            if key is None:
                continue
            parts = split_before_use(text) if _EMA_SPLIT_TITLE.search(title) else {key: text}
            for k, part in parts.items():
                answers[k].append(_flat(part))
                used[k].append(title)
        meta = table[product]
        products.append(ProductInfo(
            product=product, name=meta["name"], active=meta["active"], source="epi_leaflet",
            jurisdiction=jurisdiction[product], doc_id=f"leaflet:{product}",
            answers={k: "\n".join(v) for k, v in answers.items() if any(v)}, sections=dict(used),
        ))
    return products


def load_product_info(data_dir: Path) -> list[ProductInfo]:
    """Every medicine with at least one answerable question, SPL labels first, then leaflets."""
    products: list[ProductInfo] = []
    spl_dir = data_dir / "dailymed_spl_samples" / "xml"
    if spl_dir.is_dir():
        products += [parse_spl(p) for p in sorted(spl_dir.glob("*.xml"))]
    leaflets = data_dir / "epi_leaflets" / "epi_leaflet_sections.jsonl"
    if leaflets.is_file():
        products += parse_leaflets(leaflets)
    if not products:
        raise FileNotFoundError(f"no SPL labels or leaflets under {data_dir}")
    return [p for p in products if p.answers]
