"""Drug-information benchmark: SPL and leaflet parsing, metrics, the run, and that the answer key is never evidence."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from clinrag.context import Context
from clinrag.evals.drug_info import build_examples, extractive_answer, run_benchmark, summarize
from clinrag.evals.drug_info_metrics import (
    js_divergence,
    kl_divergence,
    macro_average,
    score_answer,
    word_distributions,
)
from clinrag.evals.product_info import load_product_info, parse_spl, split_before_use, title_key
from clinrag.schema import Document
from clinrag.tools.index.store import build_index
from clinrag.tools.retrieval.retrieval_conditions import condition_search

FIXTURE_SPL = __import__("pathlib").Path(__file__).parent / "fixtures" / "spl" / "fixturol_label.xml"


def test_parse_spl_by_loinc_codes():
    info = parse_spl(FIXTURE_SPL)
    assert (info.product, info.name, info.active, info.doc_id) == (
        "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee", "Fixturol", ["fixturolum"], "spl:aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
    assert info.medicine == "Fixturol (fixturolum)"
    assert info.answers["indications"] == "Fixturol is indicated for the treatment of invented hypertension in adults."
    # the unmapped nested subsection stays with its parent, with its title
    assert info.answers["dosage"] == ("Take one 10 mg tablet once daily with water. 2.1 Renal impairment "
                                      "Use 5 mg once daily in severe renal impairment.")
    # a nested mapped section counts once, under its own question
    assert info.answers["during_treatment"] == "Check blood pressure regularly while taking fixturol."
    assert info.answers["interactions"] == "Grapefruit juice increases fixturol exposure."
    assert info.answers["pre_use_warnings"] == "Do not use fixturol in pregnancy."
    assert "highlight" not in json.dumps(info.answers) and "antihypertensive (1)" not in info.answers["indications"]


def test_leaflet_headings_and_before_use_split():
    assert title_key("1. What Karvea is and what it is used for") == "indications"
    assert title_key("3. What if I am taking other medicines?") == "interactions"
    assert title_key("4. How do I take PAXLOVID?") == "dosage"
    assert title_key("5. How to store Karvea") == "during_treatment"
    assert title_key("6. Are there any side effects?") == "adverse_effects"
    assert title_key("6. Contents of the pack and other information") is None
    parts = split_before_use("Do not take X\nif allergic\nOther medicines and X\nTell your doctor.\n"
                             "X with food and drink\nTake with food.\nX contains lactose.\nAsk your doctor.")
    assert parts == {"pre_use_warnings": "Do not take X\nif allergic\nX contains lactose.\nAsk your doctor.",
                     "interactions": "Other medicines and X\nTell your doctor.",
                     "during_treatment": "X with food and drink\nTake with food."}


def test_metrics_by_hand():
    p, q = word_distributions("a b", "a c")  # reference "a c", answer "a b", add-one smoothing
    assert np.allclose(p, [0.4, 0.2, 0.4]) and np.allclose(q, [0.4, 0.4, 0.2])
    assert kl_divergence(p, q) == pytest.approx(0.2)  # 0.2*log2(0.5) + 0.4*log2(2)
    m = (p + q) / 2
    assert js_divergence(p, q) == pytest.approx(0.5 * kl_divergence(p, m) + 0.5 * kl_divergence(q, m))
    same = score_answer("Take one tablet daily.", "Take one tablet daily.")
    assert same["rouge1"] == same["rougeL"] == 1.0 and same["jsd"] == 0.0
    assert same["cosine"] == pytest.approx(1.0, abs=1e-5)
    empty = score_answer("", "Take one tablet, then one more tablet.")  # repeated words: not uniform
    assert empty["rouge1"] == 0.0 and empty["cosine"] == 0.0 and empty["kld"] > 0
    rows = [{"medicine": "A", "scores": {**same, "rouge1": 1.0}}, {"medicine": "A", "scores": {**same, "rouge1": 0.0}},
            {"medicine": "B", "scores": {**same, "rouge1": 0.2}}]
    macro = macro_average(rows)
    assert macro["rouge1"] == pytest.approx((0.5 + 0.2) / 2) and (macro["n_medicines"], macro["n_questions"]) == (2, 3)


@pytest.fixture(scope="module")
def evidence_with_label(tmp_path_factory):
    """Abstracts about the invented medicine plus its own label, indexed together."""
    root = tmp_path_factory.mktemp("druginfo")
    info = parse_spl(FIXTURE_SPL)
    abstracts = [
        (2003, "Fixturol lowered blood pressure in adults with hypertension."),
        (2010, "Dizziness was reported with fixturol in a cohort of older adults."),
        (2016, "Fixturol exposure rose with grapefruit juice in healthy volunteers."),
        (2020, "Fixturol was taken once daily in a trial of adults with hypertension."),
    ]
    docs = [Document(doc_id=f"pmid:{500 + i}", source_type="abstract", org="J Test", title=f"Fixturol study {i}",
                     year=y, text=t, pmid=str(500 + i)) for i, (y, t) in enumerate(abstracts)]
    docs.append(Document(doc_id=info.doc_id, source_type="label", org="FDA", title="Fixturol label",
                         text=" ".join(info.answers.values())))
    corpus = root / "evidence.jsonl"
    corpus.write_text("".join(d.model_dump_json(exclude_none=True) + "\n" for d in docs))
    build_index(corpus, root / "index")
    return info, Context(corpus_path=str(corpus), index_dir=str(root / "index"))


def test_benchmark_never_uses_the_answer_key_as_evidence(evidence_with_label):
    info, ctx = evidence_with_label
    from clinrag.tools.index.store import get_index

    index = get_index(ctx.corpus_path, ctx.index_dir)
    examples = build_examples([info])
    assert len(examples) == 6 and examples[0]["inputs"]["question"] == "Why am I taking Fixturol (fixturolum)?"
    # without the exclusion the label would be retrieved for its own questions
    assert info.doc_id in {e.doc_id for e in condition_search(index, examples[0]["inputs"]["question"], k=5).evidence}
    for condition in ("most-similar", "most-contradictory", "least-contradictory"):
        rows = run_benchmark(examples, ctx, condition, k=5)
        assert len(rows) == 6
        assert all(e["doc_id"].startswith("pmid:") for r in rows for e in r["evidence"])
        assert all(info.answers[r["question_key"]] not in r["answer"] for r in rows)
    summary = summarize(rows)
    assert summary["metrics"]["n_medicines"] == 1 and summary["metrics"]["n_questions"] == 6
    assert set(summary["by_question"]) == {"indications", "pre_use_warnings", "interactions", "dosage",
                                           "during_treatment", "adverse_effects"}
    assert all(0 <= r["scores"]["rouge1"] <= 1 and r["scores"]["jsd"] >= 0 for r in rows)


def test_extractive_answer_takes_the_most_similar_sentences(evidence_with_label):
    _, ctx = evidence_with_label
    from clinrag.tools.index.store import get_index

    index = get_index(ctx.corpus_path, ctx.index_dir)
    evidence = condition_search(index, "Does grapefruit juice interact with fixturol?", k=4,
                                exclude_source_types=frozenset({"label"})).evidence
    answer = extractive_answer("Does grapefruit juice interact with fixturol?", evidence, n=1)
    assert answer == "Fixturol exposure rose with grapefruit juice in healthy volunteers."


def test_cli_eval_drug_info_json(tmp_path, evidence_with_label):
    from clinrag.cli.main import main

    _, ctx = evidence_with_label
    data = tmp_path / "data" / "dailymed_spl_samples" / "xml"
    data.mkdir(parents=True)
    shutil.copy(FIXTURE_SPL, data / "fixturol.xml")
    out = tmp_path / "di.json"
    code = main(["eval", "drug-info", "--condition", "least-contradictory", "--corpus", ctx.corpus_path,
                 "--index-dir", ctx.index_dir, "--data-dir", str(tmp_path / "data"), "--json-out", str(out)])
    assert code == 0
    payload = json.loads(out.read_text())
    assert set(payload["metrics"]) == {"rouge1", "rouge2", "rougeL", "cosine", "jsd", "kld", "n_medicines",
                                       "n_questions"}
    assert payload["metrics"]["n_questions"] == 6 and len(payload["cases"]) == 6
    assert {"id", "medicine", "question", "answer", "evidence", "scores"} <= set(payload["cases"][0])
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "drug-info", "--condition", "newest"])
    assert exit_info.value.code == 2


def test_real_product_information():
    from clinrag.paths import data_dir

    try:
        root = data_dir()
    except FileNotFoundError:
        pytest.skip("no data directory")
    if not (root / "epi_leaflets").is_dir() or not (root / "dailymed_spl_samples").is_dir():
        pytest.skip("product information not in the data directory")
    products = {p.product: p for p in load_product_info(root)}
    assert len(products) == 24 and sum(len(p.answers) for p in products.values()) == 141
    leaflets = {}
    for line in (root / "epi_leaflets" / "epi_leaflet_sections.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        leaflets[row["product"]] = leaflets.get(row["product"], "") + row["text"].lower()
    for p in products.values():
        if p.source == "epi_leaflet":  # the curated names are the leaflet's own
            assert all(a.lower() in leaflets[p.product] for a in p.active), p.product
    karvea = products["karvea"]
    assert karvea.answers["interactions"].startswith("Other medicines and Karvea")
    assert karvea.answers["during_treatment"].startswith("Karvea with food and drink")
    viagra = next(p for p in products.values() if p.name == "Viagra")
    assert viagra.answers["indications"] == "VIAGRA is indicated for the treatment of erectile dysfunction."
    assert viagra.active == ["sildenafil"]
    assert set(products["paxlovid-au"].answers) == {"indications", "pre_use_warnings", "interactions", "dosage",
                                                     "during_treatment", "adverse_effects"}


def test_chat_model_answers_from_the_abstracts(evidence_with_label, monkeypatch):
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    import clinrag.chat_models

    info, ctx = evidence_with_label
    seen = []

    class Recording(FakeListChatModel):
        def invoke(self, messages, *args, **kwargs):
            seen.append(messages)
            return super().invoke(messages, *args, **kwargs)

    model = Recording(responses=["Fixturol was taken once daily [pmid:503]."] * 6)
    monkeypatch.setattr(clinrag.chat_models, "load_chat_model", lambda spec: model)
    chat_ctx = Context(corpus_path=ctx.corpus_path, index_dir=ctx.index_dir, chat_model="scripted:fake")
    rows = run_benchmark(build_examples([info])[3:4], chat_ctx, "most-similar", k=3)  # the dosage question
    assert rows[0]["answer"] == "Fixturol was taken once daily [pmid:503]."
    user = seen[0][1][1]
    assert "How do I take Fixturol (fixturolum)?" in user and "[pmid:" in user and info.doc_id not in user
    assert rows[0]["scores"]["rouge1"] > 0
