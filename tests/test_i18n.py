"""Russian and English catalogues are complete and the committed .mo files are current."""

from __future__ import annotations

import gettext
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def test_russian_catalogue_is_complete() -> None:
    po = polib.pofile(str(LOCALE / "ru/LC_MESSAGES/django.po"))
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not untranslated and not fuzzy
    assert len(po.translated_entries()) > 100


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_compiled_catalogue_matches_the_source(lang: str) -> None:
    po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES/django.po"))
    with open(LOCALE / lang / "LC_MESSAGES/django.mo", "rb") as fh:
        mo = gettext.GNUTranslations(fh)
    for entry in po.translated_entries():
        if entry.msgid_plural:
            assert (
                mo.ngettext(entry.msgid, entry.msgid_plural, 5)
                == entry.msgstr_plural[2 if lang == "ru" else 1]
            )
        elif entry.msgctxt:
            assert mo.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, entry.msgid
        else:
            assert mo.gettext(entry.msgid) == entry.msgstr, entry.msgid


def test_every_russian_plural_has_the_four_forms_its_header_names() -> None:
    """The Plural-Forms header names four forms (the fourth is for fractions); an entry with
    three makes ``msgfmt --check`` refuse the catalogue."""
    po = polib.pofile(str(LOCALE / "ru/LC_MESSAGES/django.po"))
    short = [e.msgid for e in po if e.msgid_plural and len(e.msgstr_plural) != 4]
    assert not short
