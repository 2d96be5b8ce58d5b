"""Names and other one-line values: one line, no control characters.

Whatever is stored in such a field may end up in an ``.nrd`` tag, a TRF line or a CSV cell,
where a line break would start a new line of the file (a forged tag, player or result)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.db import models

#: Characters that end a line somewhere (``str.splitlines`` splits on all of them) and tabs.
_BREAKS = "\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029"
_BREAK_RUN_RE = re.compile(f" *[{_BREAKS}][{_BREAKS} ]*")
#: The other control characters (C0, DEL, C1), NUL included: dropped.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")


def single_line(text: str) -> str:
    """``text`` on one line: each run of line breaks and tabs (with the spaces around it)
    becomes one space, other control characters are dropped, the ends are stripped."""
    return _BREAK_RUN_RE.sub(" ", _CONTROL_RE.sub("", text)).strip()


if TYPE_CHECKING:
    _CharField = models.CharField[str, str]
else:
    _CharField = models.CharField


class SingleLineCharField(_CharField):
    """A ``CharField`` whose value is always :func:`single_line`: in forms and ``full_clean``
    (``to_python``), on every save, ``bulk_create`` and ``update`` (``pre_save`` and
    ``get_prep_value``), so no service, command or import can store a line break.

    The column is an ordinary varchar: migrations see a plain ``CharField``."""

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return single_line(value) if isinstance(value, str) else value

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = getattr(model_instance, self.attname)
        if isinstance(value, str):
            value = single_line(value)
            setattr(model_instance, self.attname, value)
        return value

    def get_prep_value(self, value: Any) -> Any:
        value = super().get_prep_value(value)
        return single_line(value) if isinstance(value, str) else value

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs
