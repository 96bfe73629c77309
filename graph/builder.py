"""The clinrag graph:

    scope_guard -> hypotheses -> retrieve -> contradiction_check -> support_gate -> answer
         |                                                              |
         +-------------------------> abstain <--------------------------+
"""

from __future__ import annotations

from typing import Literal

from langgraph.graph import END, START, StateGraph

from clinrag.context import Context
from clinrag.graph.state import InputState, OutputState, State
from clinrag.nodes.abstain import abstain
from clinrag.nodes.answer import answer
from clinrag.nodes.contradiction_check import contradiction_check
from clinrag.nodes.hypotheses import hypotheses
from clinrag.nodes.retrieve import retrieve
from clinrag.nodes.scope_guard import scope_guard
from clinrag.nodes.support_gate import support_gate


def route_after_scope(state: State) -> Literal["hypotheses", "abstain"]:
    return "abstain" if state.decision == "abstain" else "hypotheses"


def route_after_support(state: State) -> Literal["answer", "abstain"]:
    return "abstain" if state.decision == "abstain" else "answer"


def build_graph(checkpointer=None):
    """The compiled graph; a checkpointer is optional (the API server and Studio bring their own)."""
    builder = StateGraph(State, context_schema=Context, input_schema=InputState, output_schema=OutputState)
    builder.add_node(scope_guard)
    builder.add_node(hypotheses)
    builder.add_node(retrieve)
    builder.add_node(contradiction_check)
    builder.add_node(support_gate)
    builder.add_node(answer)
    builder.add_node(abstain)
    builder.add_edge(START, "scope_guard")
    builder.add_conditional_edges("scope_guard", route_after_scope)
    builder.add_edge("hypotheses", "retrieve")
    builder.add_edge("retrieve", "contradiction_check")
    builder.add_edge("contradiction_check", "support_gate")
    builder.add_conditional_edges("support_gate", route_after_support)
    builder.add_edge("answer", END)
    builder.add_edge("abstain", END)
    return builder.compile(name="clinrag", checkpointer=checkpointer)


# Exported without a checkpointer: LangGraph Studio / the API server supply their own.
graph = build_graph()
