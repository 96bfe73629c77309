"""PER_RUN_RESET is derived from the state classes: every working field a caller does not send is reset at the
start of each run on a thread (chat turns), including fields added later."""

from __future__ import annotations

from langchain_core.messages import HumanMessage
from pydantic import Field

from clinrag.graph.state import PER_RUN_RESET, InputState, OutputState, State, per_run_reset


def test_reset_covers_every_working_field_but_the_inputs():
    assert set(PER_RUN_RESET) == set(State.model_fields) - set(InputState.model_fields)
    assert not {"question", "messages", "options"} & set(PER_RUN_RESET)
    assert set(OutputState.model_fields) - {"question", "messages"} <= set(PER_RUN_RESET)
    for name, value in PER_RUN_RESET.items():  # each at the field's default
        assert value == State.model_fields[name].get_default(call_default_factory=True), name


def test_a_newly_added_working_field_is_reset():
    class Extended(State):
        scratch: list[str] = Field(default_factory=list)
        rounds: int = 3

    reset = per_run_reset(Extended)
    assert reset["scratch"] == [] and reset["rounds"] == 3
    assert set(reset) == set(PER_RUN_RESET) | {"scratch", "rounds"}


def test_a_chat_turn_inherits_no_working_field_from_the_previous_turn(guideline_index):
    from langgraph.checkpoint.memory import InMemorySaver

    from clinrag.graph import build_graph

    graph = build_graph(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "reset"}}
    graph.invoke({"messages": [HumanMessage("Who is eligible for lung cancer screening under the USPSTF?")]}, config)
    first = graph.get_state(config).values
    assert first["decision"] == "answer" and first["evidence"] and first["support"] is not None
    graph.invoke({"messages": [HumanMessage("I carry a BRCA1 mutation. When should I start mammograms?")]}, config)
    second = graph.get_state(config).values
    assert second["abstain_reason"] == "out_of_scope"
    # an abstention at the scope guard writes only these; every other working field is back at its default
    written = {"decision", "abstain_reason", "reason", "answer", "scope", "follow_up"}
    for name, default in PER_RUN_RESET.items():
        if name not in written:
            assert second.get(name, default) == default, name
