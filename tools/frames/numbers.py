"""Numbers written in words, as guidelines write them: small numbers ("every three years", "at least another
ten years"), the teens ("fifteen years") and the tens ("forty-five", "thirty pack-years")."""

from __future__ import annotations

import re

NUMBER_WORDS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12,
}
"""Small numbers written in words: intervals ("every three years"), percentages ("seven and a half percent") and
the units of an age ("forty-five")."""


NUMBER = rf"\d+|{'|'.join(NUMBER_WORDS)}"
"""A number in digits or in words ("every three years", "at least another ten years"), read by :func:`number`."""


def number(text: str) -> int:
    """A number written in digits ("10") or as one of :data:`NUMBER_WORDS` ("ten")."""
    return NUMBER_WORDS.get(text.lower(), 0) or int(text)


_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_TEENS = {"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
          "nineteen": 19}
_UNITS = {word: n for word, n in NUMBER_WORDS.items() if n < 10}
_SPELLED = re.compile(rf"\b({'|'.join(_TENS)})(?:[- ]({'|'.join(_UNITS)}))?\b|\b({'|'.join(_TEENS)})\b", re.I)
# ordinals of a birthday: "from her fiftieth birthday", "before your twenty-fifth birthday", "her eighteenth"
_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                  "ninth": 9}
_ORDINAL_TENS = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
                 "eightieth": 80, "ninetieth": 90}
_ORDINAL_TEENS = {"thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
                  "eighteenth": 18, "nineteenth": 19}
_SPELLED_ORDINAL = re.compile(rf"\b({'|'.join(_TENS)})[- ]({'|'.join(_ORDINAL_UNITS)})\b"
                              rf"|\b({'|'.join(_ORDINAL_TENS | _ORDINAL_TEENS)})\b", re.I)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 11 <= n % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def tens_as_digits(text: str) -> str:
    """Numbers from 13 to 99 written in words as digits: ages ("forty-five to fifty-four" -> "45 to 54"), criteria
    ("thirty pack-years" -> "30 pack-years"), years ("stopped within the last fifteen years" -> "... 15 years") and
    birthdays ("from her fiftieth birthday" -> "from her 50th birthday")."""
    def digits(m: re.Match) -> str:
        if m.group(3):
            return str(_TEENS[m.group(3).lower()])
        return str(_TENS[m.group(1).lower()] + _UNITS.get((m.group(2) or "").lower(), 0))

    def ordinal(m: re.Match) -> str:
        if m.group(3):
            return _ordinal((_ORDINAL_TENS | _ORDINAL_TEENS)[m.group(3).lower()])
        return _ordinal(_TENS[m.group(1).lower()] + _ORDINAL_UNITS[m.group(2).lower()])

    return _SPELLED.sub(digits, _SPELLED_ORDINAL.sub(ordinal, text))
