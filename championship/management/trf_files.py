"""What the TRF commands share: reading the file with a clear error."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError


def read_trf_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read {path}: {exc}") from None
