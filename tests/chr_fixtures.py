"""Tiny fixtures for the CHR tests: a corpus where a mimic dominates, MIRAGE-format questions, a scripted model.

The corpus is built so that a plain dense search for the vignette returns the mimic (Lambert-Eaton myasthenic
syndrome: four passages that echo the vignette's words) while the target (myasthenia gravis) has two passages
that read like a textbook. Texts are short generic textbook statements written for these tests.
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.runnables import RunnableLambda

QUESTION = ("A 45-year-old woman has muscle weakness, fatigue and drooping eyelids that are worse in the evening. "
            "Which of the following is the most likely diagnosis?")
OPTIONS = {"A": "Lambert-Eaton myasthenic syndrome", "B": "Myasthenia gravis", "C": "Multiple sclerosis",
           "D": "Hypothyroidism"}
TARGET = ("Myasthenia gravis is an autoimmune disorder of the neuromuscular junction in which antibodies against "
          "postsynaptic acetylcholine receptors cause fatigable weakness, ptosis and double vision.")
MIMIC = ("Lambert-Eaton myasthenic syndrome is a presynaptic disorder in which antibodies against voltage-gated "
         "calcium channels reduce acetylcholine release; it is often associated with small cell lung cancer.")

MIMIC_DOCS = {
    "lems-1": ("Lambert-Eaton myasthenic syndrome (weakness)",
               "Lambert-Eaton myasthenic syndrome causes muscle weakness "
               "and fatigue of the hips and thighs in adults; the weakness improves briefly after repeated effort."),
    "lems-2": ("Lambert-Eaton myasthenic syndrome (symptoms)", "People with Lambert-Eaton myasthenic syndrome report "
               "fatigue, muscle weakness, dry mouth and reduced reflexes."),
    "lems-3": ("Lambert-Eaton myasthenic syndrome (causes)", "In Lambert-Eaton myasthenic syndrome, antibodies against "
               "presynaptic voltage-gated calcium channels reduce acetylcholine release and cause muscle weakness."),
    "lems-4": ("Lambert-Eaton myasthenic syndrome (presentation)", "Lambert-Eaton myasthenic syndrome may present in a "
               "middle-aged woman with muscle weakness, fatigue and mildly drooping eyelids."),
}
TARGET_DOCS = {
    "mg-1": ("Myasthenia gravis (information)", "Myasthenia gravis is an autoimmune disease in which antibodies "
             "against postsynaptic acetylcholine receptors cause fluctuating weakness that worsens with use."),
    "mg-2": ("Myasthenia gravis (symptoms)", "Myasthenia gravis often affects the eye muscles first, with ptosis and "
             "double vision; acetylcholine receptor antibodies support the diagnosis."),
}
OTHER_DOCS = {
    "ms-1": ("Multiple sclerosis (information)", "Multiple sclerosis is a demyelinating disease of the central nervous "
             "system with episodes of optic neuritis, numbness and weakness separated in time and space."),
    "hypo-1": ("Hypothyroidism (symptoms)", "Hypothyroidism causes tiredness, cold intolerance, weight gain, "
               "constipation and dry skin."),
    "asthma-1": ("Asthma (information)", "Asthma is a chronic inflammatory disease of the airways with wheezing, "
                 "cough and reversible airflow obstruction."),
    "gout-1": ("Gout (causes)",
               "Gout is caused by deposits of monosodium urate crystals in joints, often the big toe."),
}


def write_corpus(folder: Path) -> Path:
    path = folder / "chr_tiny.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for doc_id, (title, text) in {**MIMIC_DOCS, **TARGET_DOCS, **OTHER_DOCS}.items():
            fh.write(json.dumps({"doc_id": doc_id, "source_type": "other", "org": "TEST", "title": title,
                                 "text": text}) + "\n")
    return path


def write_mirage(folder: Path) -> Path:
    """A MIRAGE-format file: three MedQA-style questions (two diagnostic) and one PubMedQA yes/no question."""
    data = {
        "medqa": {
            "q1": {"question": QUESTION, "options": OPTIONS, "answer": "B"},
            "q2": {"question": "A man has a painful, swollen big toe after a large meal. Which of the following is the "
                               "most likely cause?",
                   "options": {"A": "Urate crystal deposition", "B": "Airway inflammation", "C": "Demyelination",
                               "D": "Low thyroid hormone"}, "answer": "A"},
            "q3": {"question": "Which drug class is used first for acute wheezing?",
                   "options": {"A": "Inhaled short-acting beta agonists", "B": "Loop diuretics",
                               "C": "Thyroid hormone", "D": "Uricosurics"}, "answer": "A"},
        },
        "pubmedqa": {"12345": {"question": "Does fatigue predict weakness?", "options": {"A": "yes", "B": "no",
                                                                                   "C": "maybe"},
                               "answer": "A", "PMID": [12345]}},
    }
    path = folder / "benchmark_rebuilt.json"
    path.write_text(json.dumps(data))
    return path


class ScriptedChatModel(GenericFakeChatModel):
    """Structured output by schema name (a value, or a callable of the messages); records every call."""

    structured: dict = {}
    calls: list = []

    def with_structured_output(self, schema, **kwargs):
        def run(messages):
            self.calls.append((schema.__name__, messages))
            value = self.structured.get(schema.__name__)
            return value(messages) if callable(value) else value

        return RunnableLambda(run)
