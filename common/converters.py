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
