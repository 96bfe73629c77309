"""Recommendation frames: guideline sentences as structured (intervention, population, action, interval,
thresholds/targets, strength) records, and typed conflicts between organizations and versions.

Modules: :mod:`.schema` (pydantic models), :mod:`.lexicon` (interventions and tests), :mod:`.subgroups`
(eligibility criteria and subgroup conditions), :mod:`.numbers` (numbers in words), :mod:`.rules` (regex rule
layer), :mod:`.extract` (sentence and document extraction, spaCy), :mod:`.groups` (whom a frame is about:
the general population, a higher-risk group, the people at a test result), :mod:`.bands` (effective age bands) and
:mod:`.conflicts` (typed disagreements). Nothing heavy is imported here.
"""
