"""Frames for a sentence that ends with a grade letter ("... it is grade B. Acceptable strategies include ..."), an
edition that "no longer sets a fixed LDL cholesterol goal; instead, the aim of treatment is a reduction ...", a measure
beside "a companion inverse indicator" whose words hold a decimal, and a question about "HPV-based cervical screening"
(``tools/frames/``: ``extract.py``, ``rules.py``, ``lexicon.py``; ``clinrag/question/understanding.py``)."""

from __future__ import annotations

from frame_fixtures import A1C, CRC, STATIN
from frame_fixtures import frame_rows as _frames
from frame_fixtures import make_doc as _doc

from clinrag.question.understanding import asked_tests
from clinrag.tools.frames.extract import document_frames, sentences


def test_a_grade_letter_that_ends_a_sentence_is_no_initial():
    text = ("The Alliance recommends colorectal cancer screening for average-risk adults from age 45 until age 75; for "
            "those aged 50 to 75 the recommendation is grade A, and for those aged 45 to 49 it is grade B. Acceptable "
            "strategies include colonoscopy every 10 years, a fecal immunochemical test (FIT) every year, or a "
            "multitarget stool DNA test every 3 years.")
    assert len(sentences(text)) == 2
    options = [f for f in document_frames(_doc("eg-crc", CRC["topic"], text)) if f.test]
    assert [(f.test, f.population.age_min, f.strength) for f in options] == [
        ("colonoscopy", None, None), ("FIT", None, None), ("mt-sDNA", None, None)]


def test_no_fixed_goal_and_instead_a_reduction():
    rows = _frames("The Association no longer sets a fixed LDL cholesterol goal; instead, the aim of treatment is a "
                   "reduction in LDL cholesterol of 30% to 49% from baseline with a moderate-intensity statin "
                   "(class I; LOE A).", STATIN)
    assert [(r[0], r[8]) for r in rows] == [("recommend", ["LDL-C reduction 30-49 %"])]
    # (what an edition no longer does, alone, is no advice)
    assert _frames("The Association no longer sets a fixed LDL cholesterol goal.", STATIN) == []


def test_a_companion_inverse_indicator_does_not_make_the_measure_inverse():
    measure = _doc("qr-dm", A1C["topic"], "Numerator (control): members whose most recent A1C in the measurement year "
                   "is less than 8.0% (64 mmol/mol). A companion inverse indicator, DM-2b, counts members whose most "
                   "recent value is greater than 9.0% or who had no test in the year, where a lower rate indicates "
                   "better performance.")
    goals = [f for f in document_frames(measure) if f.targets]
    assert [[q.text() for q in f.targets] for f in goals][:1] == [["<8 %", "<64 mmol/mol"]]


def test_a_question_about_hpv_based_cervical_screening_names_hpv_testing():
    assert asked_tests("Do AVG, CQMC and TCSS agree on how often HPV-based cervical screening should be "
                       "repeated?") == {"hrHPV testing"}
