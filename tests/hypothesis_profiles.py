"""Hypothesis settings for the whole suite, in one place (loaded by ``tests/conftest.py``).

No test may depend on how fast or busy the machine is, so every profile has ``deadline=None``
and no ``too_slow`` health check (both measure wall-clock time). The profiles differ only in
how many examples a property test tries:

* ``dev`` (``make test-fast``): a quick loop while working, a fifth of the examples;
* ``default`` (``make test``): a third of them;
* ``ci`` (``.ci/run``): the full count each test states;
* ``thorough`` (by hand, before a release or after touching the engine): five times that.

Choose with ``HYPOTHESIS_PROFILE=ci``. A property test states its full count through
``examples(n)``, so the profile scales it::

    @settings(max_examples=examples(150))
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SCALE = {"dev": 0.2, "default": 1 / 3, "ci": 1.0, "thorough": 5.0}
#: Even the quick loop tries at least this many examples of each property.
FLOOR = 10

for _name in SCALE:
    settings.register_profile(
        _name,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        print_blob=True,
    )

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
if PROFILE not in SCALE:
    raise RuntimeError(f"HYPOTHESIS_PROFILE={PROFILE!r}: choose one of {', '.join(SCALE)}")
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """The examples to try under the loaded profile, of a property whose full count is
    ``full`` (never fewer than ``FLOOR``, nor more than ``full`` below the ``ci`` profile)."""
    scaled = round(full * SCALE[PROFILE])
    return max(scaled, min(FLOOR, full))
