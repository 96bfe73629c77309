"""Custom stream events: the evidence map as it forms, and ``clinrag ask`` showing them live."""

from __future__ import annotations

import json

from clinrag.cli.main import main
from clinrag.context import Context
from clinrag.graph.events import emit

ANSWERED = ["clinrag.scope", "clinrag.evidence", "clinrag.contradictions", "clinrag.support"]


def custom_events(graph, question: str, **ctx) -> list[dict]:
    return [c for c in graph.stream({"question": question}, context=Context(**ctx), stream_mode="custom")]


def test_answered_question_streams_scope_evidence_contradictions_support(graph):
    events = custom_events(graph, "When should average-risk women start mammography, and do the organizations agree?")
    assert [e["type"] for e in events] == ANSWERED
    scope, evidence, contradictions, support = events
    assert scope["in_scope"] is True and scope["category"] is None
    assert {"uspstf-breast-2024", "acs-breast-2015"} <= {i["doc_id"] for i in evidence["items"]}
    assert all(set(i) == {"doc_id", "org", "title", "issued", "year", "status", "superseded_by", "support_score"}
               for i in evidence["items"])  # compact: no passage text in the stream
    assert all(e["score"] >= contradictions["threshold"] for e in contradictions["flagged"])
    # the demo question's real difference, typed: ACS starts at 45 where USPSTF, ACR and ACOG start at 40
    start = [d for d in contradictions["disagreements"] if d["facet"] == "start_age"]
    assert len(start) == 1 and start[0]["kind"] == "disagreement"
    values = {v["org"]: v["value"] for v in start[0]["values"]}
    assert values["ACS"] == "45 (individual decision from 40)" and values["USPSTF"] == "40"
    # no NLI flag between a recommendation sentence and an unrelated one ("does not recommend clinical breast
    # examination" vs "the ACR issued ... in 2021" was flagged at 0.79 before frames took recommendation sentences)
    assert not any("clinical breast examination" in e["sentence_a"] + e["sentence_b"]
                   for e in contradictions["flagged"])
    assert support["decision"] == "answer" and support["support"] >= support["threshold"]
    json.dumps(events)  # plain JSON: any UI or the API server can send them as they are


def test_abstentions_stream_their_reason(graph):
    out_of_scope = custom_events(graph, "I have crushing chest pain right now. Should I take an aspirin?")
    assert [e["type"] for e in out_of_scope] == ["clinrag.scope"]
    assert out_of_scope[0]["in_scope"] is False and out_of_scope[0]["category"] == "emergency"
    unsupported = custom_events(graph, "How often should I replace my toothbrush?")
    assert unsupported[-1] == {**unsupported[-1], "type": "clinrag.support", "decision": "abstain"}


def test_emitting_without_a_stream_is_a_no_op(graph):
    emit(None, "scope", in_scope=True)  # a node called directly, without a runtime
    out = graph.invoke({"question": "Who is eligible for lung cancer screening?"})  # not streamed: nothing breaks
    assert out["decision"] == "answer"


def test_ask_prints_status_lines_before_the_evidence_map(capsys, guideline_index):
    assert main(["ask", "How did the USPSTF colorectal cancer screening recommendation change?"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("> ")]
    assert lines[0] == "> in scope: searching the corpus"
    assert any("[uspstf-crc-2016]" in line and "superseded by uspstf-crc-2021" in line for line in lines)
    assert any(line.startswith("> support") and line.endswith("answering") for line in lines)
    assert out.index("> in scope") < out.index("Evidence map")


def test_the_progress_line_counts_typed_disagreements_and_nli_flags_apart():
    from clinrag.cli.live import event_lines

    event = {"type": "clinrag.contradictions", "flagged": [], "document_pairs": 6, "threshold": 0.5,
             "disagreements": [{"kind": "disagreement"}, {"kind": "disagreement"}, {"kind": "change"}]}
    assert event_lines(event)[0] == ("disagreements (recommendation frames): 2 between organizations, 1 changes "
                                     "between versions; NLI: 0 of 6 document pairs flagged")
