"""Two kinds of error (STYLE.md): a user error the organiser can fix, and everything else."""

from __future__ import annotations


class PairingError(Exception):
    """A request that cannot be carried out as asked (translated by the web layer):
    no legal pairing, no rounds left, a broken TRF line, ..."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)
