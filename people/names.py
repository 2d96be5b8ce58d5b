"""How names are compared (pure Python, no Django): the one home of the rules that say two
written names are the same person's.

- ``name_key``: the same name up to Unicode form, case and spaces (NFC, case-folded, runs of
  white space made one space, trimmed). The ratings of a TRF series identify a person by it,
  and the organisers' list of likely duplicates groups by it.
- ``sound_key``: the same name up to script and spelling as well: Cyrillic written in Latin
  letters (``anyascii``), the spellings transliteration varies in (Yuri / Iurii / Yuriy,
  Aleksandr / Alexander, Zhenya / Jenya) brought together, and the words in any order
  (``Petrov Ivan`` = ``Ivan Petrov``). It finds *likely* duplicates for an organiser to look
  at; it is never used to merge anybody by itself.
"""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii


def name_key(name: str) -> str:
    """The name as compared: NFC, case-folded, single spaces, trimmed."""
    folded = unicodedata.normalize("NFC", name).casefold()
    return " ".join(unicodedata.normalize("NFC", folded).split())


#: Spellings that transliterations of the same Russian name differ in, in the order applied.
_SPELLINGS = (
    ("x", "ks"),
    ("yo", "e"),
    ("jo", "e"),
    ("ander", "andr"),
    ("kh", "h"),
    ("zh", "j"),
    ("dzh", "j"),
    ("ts", "c"),
    ("tz", "c"),
    ("ch", "c"),
    ("sh", "s"),
    ("w", "v"),
    ("ph", "f"),
    ("y", "i"),
    ("j", "i"),
    ("ie", "e"),
    ("ii", "i"),
)
_NOT_LETTER = re.compile(r"[^a-z ]+")
_REPEATED = re.compile(r"(.)\1+")


def _skeleton(word: str) -> str:
    for written, said in _SPELLINGS:
        word = word.replace(written, said)
    word = _REPEATED.sub(r"\1", word)
    # A trailing "i" after a vowel (Yuriy / Yurii / Yuri, Andrey / Andrei) is one sound.
    return re.sub(r"([aeiou])i$", r"\1", word) if len(word) > 3 else word


def sound_key(name: str) -> str:
    """The name up to script, transliteration and word order (see the module's docstring);
    empty for a name with no letters."""
    latin = anyascii(name_key(name)).lower()
    words = [_skeleton(w) for w in _NOT_LETTER.sub(" ", latin.replace("'", "")).split()]
    return " ".join(sorted(w for w in words if w))
