"""The pure packages never import Django."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_engine_does_not_import_django() -> None:
    code = (
        "import sys, games.engine, games.engine.record, games.engine.__main__;"
        "assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_pairing_does_not_import_django() -> None:
    code = (
        "import sys, championship.pairing;"
        "assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
