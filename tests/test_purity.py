"""The pure packages never import Django."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "modules",
    [
        "games.engine, games.engine.record, games.engine.__main__",
        "championship.pairing",
        "championship.rating, championship.rating.trf_games, championship.rating.series",
        "people.names",
        "games.clock",
        "championship.schedule",
    ],
)
def test_pure_packages_do_not_import_django(modules: str) -> None:
    code = (
        f"import sys, {modules};"
        "assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
