"""The production WSGI server (granian, as deploy/systemd/nardy-web.service runs it) with the
production settings serves pages and static files (PostgreSQL, Redis)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_granian_in_production_mode(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "integration-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "GRANIAN_INTERFACE": "wsgi",
        "GRANIAN_HOST": "127.0.0.1",
        "GRANIAN_PORT": str(port),
        "GRANIAN_WORKERS": "2",
        "GRANIAN_BLOCKING_THREADS": "2",
    }
    static_root = ROOT / "staticfiles"
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=120,
    )
    granian = Path(sys.executable).parent / "granian"
    proc = subprocess.Popen(
        [str(granian), "championship.wsgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        with urllib.request.urlopen(base + "/", timeout=5) as response:
            assert response.status == 200
            headers = response.headers
            assert "default-src 'self'" in headers["Content-Security-Policy"]
            assert headers["X-Frame-Options"] == "DENY"
            html = response.read().decode()
        css = next(
            part.split('"')[0]
            for part in html.split('href="/static/')[1:]
            if ".css" in part.split('"')[0]
        )
        with urllib.request.urlopen(f"{base}/static/{css}", timeout=5) as response:
            assert response.status == 200
            assert "max-age" in response.headers.get("Cache-Control", "")  # hashed name, cached
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert static_root.exists()
