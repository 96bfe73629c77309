"""clinrag: clinical-evidence answers that keep disagreement, time and uncertainty visible."""

import os

# ONNX Runtime (>= 1.29) sends usage telemetry from Linux and macOS too (a background upload to
# mobile.events.data.microsoft.com once a session is created). clinrag runs offline and sends nothing anywhere;
# ONNX Runtime reads ORT_DISABLE_TELEMETRY=1 once, before it initializes, so it is set as the package is imported,
# ahead of any clinrag code that loads ONNX Runtime. A value the user set is kept.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

__version__ = "0.1.0"

NOT_MEDICAL_ADVICE = (
    "Not medical advice: this summarizes published guidance for information only; "
    "decisions about your care belong with a clinician who knows your history."
)
