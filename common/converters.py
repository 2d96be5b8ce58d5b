"""URL converters: ``<id:…>`` is an ``int`` of at most 18 digits, so a number no row can have
(``99999999999999999999``) is a 404 at the URL instead of an overflow in the database."""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")


def posted_id(value: str | None) -> int | None:
    """The row id a form posted (a hidden field, a button's value), or None when it is not one
    a row can have: so a tampered value is "not found", never an error in the database."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > 18:
        return None
    return int(value)
