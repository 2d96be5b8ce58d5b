"""Texts kept in two languages on a model: ``name`` (English, the default, used by exports and
interchange files) and ``name_ru`` (Russian, optional)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language


def localized(obj: object, field: str, language: str | None = None) -> str:
    """``obj.<field>_<language>`` when the language (default: the active one) is not the
    default one and that text is given; ``obj.<field>`` otherwise."""
    code = (language or get_language() or settings.LANGUAGE_CODE).split("-")[0]
    if code != settings.LANGUAGE_CODE:
        text = getattr(obj, f"{field}_{code}", "")
        if text:
            return str(text)
    return str(getattr(obj, field))
