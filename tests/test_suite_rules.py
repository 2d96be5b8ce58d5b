"""The suite's own rules (docs/testing.md): no test depends on how fast or busy the machine is.

Hypothesis has no deadline and its example counts come from the profile; browser tests wait on
conditions with the one timeout of ``tests/browser/conftest.py``, never fixed sleeps."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import settings

from tests import hypothesis_profiles

TESTS = Path(__file__).resolve().parent


def _sources(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(TESTS)): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*.py"))
    }


def test_the_loaded_profile_has_no_deadline() -> None:
    assert settings().deadline is None
    assert settings().max_examples == settings.get_profile(hypothesis_profiles.PROFILE).max_examples


def test_the_profiles_scale_the_full_count() -> None:
    assert hypothesis_profiles.SCALE["ci"] == 1.0
    assert all(
        scale <= 1.0 for name, scale in hypothesis_profiles.SCALE.items() if name != "thorough"
    )
    assert hypothesis_profiles.examples(1) == 1
    assert hypothesis_profiles.examples(300) >= hypothesis_profiles.FLOOR


def test_no_test_sets_a_deadline_or_a_fixed_example_count() -> None:
    found = []
    for name, text in _sources(TESTS).items():
        if name in ("hypothesis_profiles.py", "test_suite_rules.py"):
            continue
        found += [
            f"{name}: settings(deadline=)"
            for _ in re.finditer(r"settings\((?:[^()]|\([^()]*\))*\bdeadline\s*=", text)
        ]
        found += [
            f"{name}: max_examples={m.group(1)}"
            for m in re.finditer(r"max_examples\s*=\s*(\d+)", text)
        ]
    assert found == [], "use the profile: max_examples=examples(n), no deadline"


def test_browser_tests_wait_on_conditions_not_on_the_clock() -> None:
    found = []
    for name, text in _sources(TESTS / "browser").items():
        if name.endswith("conftest.py"):
            continue  # the waiting helpers themselves
        for pattern in (
            r"time\.sleep\(",
            r"wait_for_timeout\(",
            r"timeout\s*=\s*\d",
            r"\bwait_for\((?:[^()]|\([^()]*\))*,\s*[\d.]+\s*\)",  # wait_for(check, 5)
            r"time\.(?:monotonic|perf_counter)\(",  # how long something took
        ):
            found += [f"{name}: {m.group(0)}" for m in re.finditer(pattern, text)]
    assert found == [], "wait for a condition (tests/browser/conftest.py), not a time"


def test_no_test_writes_outside_its_own_folders() -> None:
    """A test writes a file for a person to look at through ``screenshot`` or ``keep``
    (tests/browser/conftest.py: only with SCREENSHOTS set, the folder made there) and any
    other file under pytest's ``tmp_path``: one test wrote into a /tmp folder that another
    test made, and failed on a fresh machine whenever it ran first on its worker."""
    found = []
    for name, text in _sources(TESTS).items():
        if name in ("browser/conftest.py", "test_suite_rules.py"):
            continue
        for m in re.finditer(
            r"(\w+(?:\s*/\s*[^)\n]+?)?)\)?\.(?:write_bytes|write_text|mkdir)\(", text
        ):
            if not re.match(r"\(?(tmp_path|path|bad|old)\b", m.group(1)):
                found.append(f"{name}: {m.group(0)}")
        found += [
            f"{name}: {m.group(0)}" for m in re.finditer(r"\bopen\([^)]*['\"][wa]b?['\"]", text)
        ]
    assert found == [], "write through screenshot()/keep() or under tmp_path"
