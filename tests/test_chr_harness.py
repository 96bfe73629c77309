"""`clinrag eval chr` on a tiny MIRAGE-format file and corpus; MIRAGE/MedQuAD/PubMedQA loaders; overlap statistic."""

from __future__ import annotations

import itertools
import json

import pytest
from chr_fixtures import OPTIONS, ScriptedChatModel, write_corpus, write_mirage
from langchain_core.messages import AIMessage

from clinrag.cli.main import main
from clinrag.evals.chr import overlap
from clinrag.evals.chr_data import load_mirage, medquad_documents, pubmedqa_documents, select


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("chr-harness")
    return {"corpus": str(write_corpus(folder)), "mirage": str(write_mirage(folder)), "dir": folder}


def run_cli(files, *extra, capsys=None):
    out = files["dir"] / "out.json"
    code = main(["eval", "chr", "--mirage", files["mirage"], "--corpus", files["corpus"], "--json-out", str(out),
                 *extra])
    return code, (json.loads(out.read_text()) if code == 0 else None)


def test_mirage_loading_and_diagnosis_selection(files):
    questions = load_mirage("medqa", files["mirage"])
    assert [q.id for q in questions] == ["q1", "q2", "q3"] and questions[0].options == OPTIONS
    assert [q.id for q in select(questions, "diagnosis")] == ["q1", "q2"]  # diagnosis and cause; not treatment
    assert load_mirage("pubmedqa", files["mirage"])[0].pmids == ["12345"]
    with pytest.raises(ValueError, match="unknown benchmark"):
        load_mirage("nejm", files["mirage"])


def test_oracle_run_compares_retrievers_and_labels_the_upper_bound(files, capsys):
    code, result = run_cli(files, "--retriever", "chr,hyde,dense", "--hypotheses", "oracle", "--select", "diagnosis")
    assert code == 0
    printed = capsys.readouterr().out
    assert "upper bound of the retrieval mechanism, not end-to-end accuracy" in printed and "| chr |" in printed
    metrics = result["metrics"]
    assert metrics["retriever"] == "chr" and metrics["n"] == 2
    assert set(metrics["by_retriever"]) == {"chr", "hyde", "dense"}
    assert {"accuracy", "n", "mimic_share_top5", "chance"} <= set(metrics) and metrics["chance"] == 0.25
    q1 = {c["retriever"]: c for c in result["cases"] if c["id"] == "q1"}
    assert q1["chr"]["predicted"] == "B" and q1["dense"]["predicted"] == "A" and q1["chr"]["answer"] == "B"
    assert q1["chr"]["hypotheses"]["mimic_label"] == "A"  # the distractor most similar to the question
    assert q1["chr"]["mimic_share_top5"] < q1["dense"]["mimic_share_top5"]
    assert all(len(c["top5_doc_ids"]) == 5 for c in result["cases"])
    assert metrics["by_retriever"]["chr"]["accuracy"] > metrics["by_retriever"]["dense"]["accuracy"]
    pairs = {o["pair"]: o for o in metrics["overlap"]}
    assert pairs["chr correct, dense wrong"]["n"] >= 1


def test_option_hypotheses_run_reports_hypothesis_accuracy_beside_chance(files):
    code, result = run_cli(files, "--retriever", "all", "--limit", "2")
    assert code == 0
    assert result["settings"]["hypotheses"] == "options" and result["metrics"]["n"] == 2
    assert set(result["metrics"]["by_retriever"]) == {"chr", "dense", "bm25", "hyde", "query2doc", "rrf"}
    assert result["metrics"]["hypothesis_accuracy"] in (0.0, 0.5, 1.0)
    assert all(c["answered_by"] == "option_support" for c in result["cases"])


def test_yes_no_questions_without_chat_model_have_no_llm_free_answer(files):
    code, result = run_cli(files, "--benchmark", "pubmedqa", "--retriever", "dense")
    assert code == 0 and result["metrics"]["accuracy"] is None and result["cases"][0]["predicted"] is None
    assert result["metrics"]["gold_recall_top5"] is None  # PMID 12345 is not in this corpus


def test_llm_hypotheses_and_medrag_answer_with_a_scripted_model(files, monkeypatch):
    model = ScriptedChatModel(
        messages=itertools.repeat(AIMessage('{"step_by_step_thinking": "ptosis, fatigable", "answer_choice": "B"}')),
        structured={"Hypotheses": {"target": "Myasthenia gravis textbook passage.", "mimic": "Lambert-Eaton passage."},
                    "Passages": {"passages": ["A passage about myasthenia gravis."]}},
        calls=[],
    )
    monkeypatch.setattr("clinrag.evals.chr_pipeline.load_chat_model", lambda spec: model)
    code, result = run_cli(files, "--chat-model", "fake:scripted", "--retriever", "chr,hyde", "--limit", "1")
    assert code == 0 and result["settings"]["hypotheses"] == "llm"
    case = next(c for c in result["cases"] if c["retriever"] == "chr")
    assert case["predicted"] == "B" and case["answered_by"] == "chat_model"
    assert case["hypotheses"]["source"] == "llm"
    assert case["hypotheses"]["expansions"]["hyde"] == ["A passage about myasthenia gravis."]
    assert [name for name, _ in model.calls] == ["Hypotheses", "Passages"]  # one call each, shared by the retrievers


@pytest.mark.parametrize("extra, message", [
    (["--hypotheses", "llm"], "needs a chat model"),
    (["--retriever", "colbert"], "unknown retriever"),
    (["--limit", "0"], "at least 1"),
    (["--select", "diagnosis", "--benchmark", "pubmedqa"], "no pubmedqa questions"),
])
def test_bad_input_exits_2_with_a_message(files, capsys, extra, message):
    assert main(["eval", "chr", "--mirage", files["mirage"], "--corpus", files["corpus"], *extra]) == 2
    assert message in capsys.readouterr().err


def test_missing_mirage_file_exits_2(files, capsys):
    assert main(["eval", "chr", "--mirage", str(files["dir"] / "nope.json"), "--corpus", files["corpus"]]) == 2
    assert "not found" in capsys.readouterr().err


def test_overlap_counts_wins_with_disjoint_top_lists():
    from clinrag.evals.chr_data import MirageQuestion

    def row(qid, chr_pred, hyde_pred, chr_ids, hyde_ids):
        q = MirageQuestion(id=qid, benchmark="medqa", question="?", options={"A": "a", "B": "b"}, answer="A")
        by = {"chr": {"predicted": chr_pred, "top5_passage_ids": chr_ids, "top5_doc_ids": [i[0] for i in chr_ids]},
              "hyde": {"predicted": hyde_pred, "top5_passage_ids": hyde_ids, "top5_doc_ids": [i[0] for i in hyde_ids]}}
        return {"question": q, "outputs": {"by_retriever": by}}

    rows = [row("1", "A", "B", ["x1", "y1"], ["z1"]), row("2", "A", "B", ["x1"], ["x1", "z1"]),
            row("3", "A", "A", ["x1"], ["z1"]), row("4", "B", "A", ["x1"], ["z1"])]
    result = overlap(rows, "chr", "hyde")
    assert result["n"] == 2 and result["share_no_shared_passage"] == 0.5


def test_medquad_subset_and_pubmedqa_abstracts(tmp_path):
    boiler = ("What are the signs and symptoms of Foo syndrome? The Human Phenotype Ontology provides the following "
              "list of signs and symptoms for Foo syndrome. If the information is available, the table below includes "
              "how often the symptom is seen in people with this condition. You can use the MedlinePlus Medical "
              "Dictionary to look up the definitions for these medical terms. Signs and Symptoms Approximate number of "
              "patients (when available) Short stature - Seizures - Cataract - The Human Phenotype Ontology (HPO) has "
              "collected information on how often a sign or symptom occurs in a condition. More text.")
    long_text = " ".join(f"Sentence number {i} about Bar disease." for i in range(60))
    records = [
        {"qid": "1-1", "qtype": "symptoms", "answer": boiler, "focus": "Foo syndrome"},
        {"qid": "1-2", "qtype": "treatment", "answer": "Treatment text that is not a description.", "focus": "Foo"},
        {"qid": "2-1", "qtype": "information", "answer": long_text, "focus": "Bar disease"},
        {"qid": "2-1", "qtype": "information", "answer": "Baz is a different focus in the same file.", "focus": "Baz"},
        {"qid": "3-1", "qtype": "causes", "answer": long_text, "focus": "Bar disease"},  # same text: dropped
        {"qid": "4-1", "qtype": "information", "answer": "", "focus": "Empty"},
    ]
    path = tmp_path / "medquad.jsonl"
    path.write_text("".join(json.dumps({**r, "collection": "2_GARD_QA", "source": "GARD", "url": None}) + "\n"
                            for r in records))
    docs = medquad_documents(path)
    assert [d.doc_id for d in docs] == ["medquad:1-1", "medquad:2-1", "medquad:2-1.2"]
    assert docs[0].text == "Short stature - Seizures - Cataract -" and docs[0].title == "Foo syndrome (symptoms)"
    assert len(docs[1].text.split()) <= 120 and docs[1].text.endswith("Bar disease.")
    pq = tmp_path / "pqal.jsonl"
    pq.write_text(json.dumps({"pmid": "42", "year": 2011, "question": "Does X help?",
                              "contexts": ["Background.", "Results."], "long_answer": "X helps.",
                              "final_decision": "yes"}) + "\n")
    (abstract,) = pubmedqa_documents(pq)
    assert abstract.doc_id == "pubmed:42" and abstract.text == "Background. Results." and "helps" not in abstract.text


def test_real_mirage_diagnosis_selection_size():
    from clinrag.evals.chr_data import mirage_path

    try:
        path = mirage_path()
    except FileNotFoundError:
        pytest.skip("no data directory")
    if not path.is_file():
        pytest.skip("MIRAGE not available")
    counts = {b: len(select(load_mirage(b, path), "diagnosis")) for b in ("medqa", "mmlu", "medmcqa")}
    assert counts == {"medqa": 288, "mmlu": 73, "medmcqa": 75}


def test_cli_choices_match_the_modules():
    from clinrag.cli import chr as cli_chr
    from clinrag.evals.chr_data import BENCHMARKS
    from clinrag.evals.chr_pipeline import HYPOTHESIS_MODES
    from clinrag.tools.retrieval.retrievers import RETRIEVERS

    assert (cli_chr.BENCHMARK_CHOICES, cli_chr.RETRIEVER_CHOICES, cli_chr.HYPOTHESIS_CHOICES) == \
        (BENCHMARKS, RETRIEVERS, HYPOTHESIS_MODES)


def test_chr_upload_syncs_the_dataset_with_schemas_and_stable_ids(langsmith_api):
    from clinrag.evals.chr import ChrInputs, ChrOutputs, example_id, upload_dataset
    from clinrag.evals.chr_data import MirageQuestion

    questions = [MirageQuestion(id=f"q{i}", benchmark="medqa", question=f"Question {i}?", options={"A": "a", "B": "b"},
                                answer="A") for i in range(2)]
    assert upload_dataset(questions) == "clinrag-chr-medqa"
    (create,) = langsmith_api.calls("POST", "/datasets")
    assert create["body"]["inputs_schema_definition"] == ChrInputs.model_json_schema()
    assert create["body"]["outputs_schema_definition"] == ChrOutputs.model_json_schema()
    (bulk,) = langsmith_api.calls("POST", "/examples/bulk")
    assert {e["id"] for e in bulk["body"]} == {str(example_id(q)) for q in questions}
    upload_dataset(questions)  # a second upload of the same questions changes nothing
    assert len(langsmith_api.calls("POST", "/examples/bulk")) == 1
