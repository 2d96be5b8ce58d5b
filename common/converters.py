"""Numbers from outside, read in one place: URL converters (``<id:…>``), posted values and
query strings. Views get typed values.

A number from outside is written in ASCII digits only, at most 18 of them, with no sign, no
spaces and no decimal point; ``str.isdigit()`` is no test (it is true for ``²`` and ``٣``,
which ``int()`` refuses or reads), nor is ``int()`` (it takes ``" 7"``, ``"-1"``, ``"٣"``). A
value that is not such a number in the range wanted is a :class:`NumberError` with a clear,
translated message (:func:`parse_int`), or "none" where the value is optional and junk
means nothing (:func:`int_or_none`, :func:`posted_id`)."""

from __future__ import annotations

import re

from django.urls import register_converter
from django.utils.translation import gettext as _

#: The digits of a number from outside: ASCII only, at most 18 (a 64-bit row id).
DIGITS = re.compile(r"[0-9]{1,18}")
#: The largest row id (18 digits).
MAX_ID = 10**18 - 1


class NumberError(ValueError):
    """A value that is not a whole number in the range wanted; ``str()`` says so."""


def _digits(value: object) -> int | None:
    if not isinstance(value, str) or DIGITS.fullmatch(value) is None:
        return None
    return int(value)


def parse_int(value: str | None, *, minimum: int = 0, maximum: int = MAX_ID) -> int:
    """The whole number ``value`` writes in ASCII digits, from ``minimum`` to ``maximum``;
    otherwise :class:`NumberError` saying what is wanted."""
    number = _digits(value)
    if number is None or not minimum <= number <= maximum:
        raise NumberError(
            _("Enter a whole number from %(minimum)d to %(maximum)d.")
            % {"minimum": minimum, "maximum": maximum}
        )
    return number


def int_or_none(value: str | None, *, minimum: int = 0, maximum: int = MAX_ID) -> int | None:
    """The number ``value`` writes (as :func:`parse_int`), or None when it is absent or not
    such a number: for optional values where junk means nothing (a page's ``?round=``)."""
    number = _digits(value)
    return number if number is not None and minimum <= number <= maximum else None


class IdConverter:
    """``<id:…>``: an ``int`` of at most 18 digits, so a number no row can have
    (``99999999999999999999``) is a 404 at the URL instead of an overflow in the database."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return parse_int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


def posted_id(value: str | None) -> int | None:
    """The row id a form posted (a hidden field, a button's value), or None when it is not one
    a row can have: so a tampered value is "not found", never an error in the database."""
    return int_or_none(value)
