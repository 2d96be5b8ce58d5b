"""What the championship tells other apps, without knowing them.

``round_pairings_changed`` (keyword ``round``): the pairings of a *published* round, or its
start, are as the players must now be told — sent inside the transaction that made them so
(by ``services.round_publish``, by a schedule change moving a published round, and by any
service that changes a published round's boards). The registrations app answers it with the
pairing e-mails (``registrations.services.pairing_notices``), written in the same transaction."""

from __future__ import annotations

from django.dispatch import Signal

round_pairings_changed = Signal()
