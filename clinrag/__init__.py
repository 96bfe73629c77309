"""clinrag: clinical-evidence answers that keep disagreement, time and uncertainty visible."""

__version__ = "0.1.0"

NOT_MEDICAL_ADVICE = (
    "Not medical advice: this summarizes published guidance for information only; "
    "decisions about your care belong with a clinician who knows your history."
)
