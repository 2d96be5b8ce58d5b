"""What the TRF commands share: reading the file, and turning every problem in it into a
``CommandError`` that names the line."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management.base import CommandError

from championship.pairing import PairingError

#: Larger than the TRF of any real tournament (9,999 players x 200 rounds is about 20 MB).
MAX_BYTES = 32 * 1024 * 1024
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def read_trf_file(path: Path) -> str:
    """The text of a TRF file (UTF-8, a byte-order mark allowed)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise CommandError(f"cannot read {path}: larger than {MAX_BYTES // (1024 * 1024)} MB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = len(_LINE_BREAK.findall(data, 0, exc.start)) + 1
        raise CommandError(f"{path}: {PairingError('trf.not_utf8', line=line)}") from None


def trf_error(path: Path, exc: PairingError) -> CommandError:
    return CommandError(f"{path}: {exc}")
