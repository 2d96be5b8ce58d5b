"""What a web server's worker process loads, put out of the garbage collector's reach
(docs/performance.md, "The hall"; docs/deploy.md).

A full collection stops every thread of the process while it looks at every object the
collector tracks. The objects the application made as it loaded (about 110,000: modules,
models, URL patterns) never become garbage, yet a full collection looked at all of them:
50-270 ms under the hall's load. ``gc.freeze()`` moves what exists now out of its reach, so it
looks only at what requests left. A worker loads much more only when its first requests ask
for it (the views behind the URL patterns, compiled templates, the catalogues of both
languages: about 40,000 objects, 15-40 ms of a slow core each full collection): what the
process has after ``WARM_REQUESTS`` requests is frozen too.

Used by ``championship/wsgi.py``, the entry point the production server (granian) loads in
each of its worker processes (``runserver`` loads it too, where it does no harm; the tests'
live server does not).
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Callable

from django.core.signals import request_finished

#: The counts of requests served by a process at which what it has is frozen again: the
#: tablets' pool, which serves a few requests a second, is warm after the first.
WARM_REQUESTS = (50, 500, 5000)
_UID = "common.warm.freeze_as_warmed"


def freeze_as_warmed() -> Callable[..., None]:
    """Freezes what the process has now, and again when it has served each of
    ``WARM_REQUESTS`` requests (Django's ``request_finished``, sent as each response is
    closed). Returns the receiver, connected once per process whatever the number of calls
    (``dispatch_uid``). The count is ``itertools.count``: atomic under the interpreter's lock,
    so the threads of a worker share it safely."""
    gc.freeze()
    served = itertools.count(1)

    def finished(**_kwargs: object) -> None:
        if next(served) in WARM_REQUESTS:
            gc.freeze()

    request_finished.connect(finished, weak=False, dispatch_uid=_UID)
    return finished


def stop() -> bool:
    """Disconnects the receiver (for the tests); whether it was connected."""
    return request_finished.disconnect(dispatch_uid=_UID)
