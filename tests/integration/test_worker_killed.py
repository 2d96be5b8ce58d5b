"""A Celery worker killed in the middle of sending an e-mail (inside the SMTP exchange, before
the server's final reply): the task is delivered again to another worker, which finds the
outbox row left "sending" past OUTBOX_SENDING_TIMEOUT and sends it with the same Message-ID;
the mail server accepts it once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


class SlowSMTP:
    """A minimal SMTP server: the first message's final reply is held back (the worker gets
    killed while waiting); later messages are accepted and counted."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.port = self.sock.getsockname()[1]
        self.delivered: list[str] = []
        self.held: list[str] = []
        self.first_data = threading.Event()
        self.connections = 0
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(
                target=self.session, args=(conn, self.connections == 1), daemon=True
            ).start()

    def session(self, conn: socket.socket, hold: bool) -> None:
        f = conn.makefile("rb")
        conn.sendall(b"220 test ESMTP\r\n")
        try:
            while True:
                line = f.readline()
                if not line:
                    return
                cmd = line.strip().upper()
                if cmd.startswith((b"EHLO", b"HELO")):
                    conn.sendall(b"250 test\r\n")
                elif cmd.startswith((b"MAIL", b"RCPT", b"RSET", b"NOOP")):
                    conn.sendall(b"250 ok\r\n")
                elif cmd == b"DATA":
                    conn.sendall(b"354 go on\r\n")
                    body = []
                    while (chunk := f.readline()) not in (b".\r\n", b""):
                        body.append(chunk.decode(errors="replace"))
                    if hold:
                        self.held.append("".join(body))
                        self.first_data.set()
                        time.sleep(120)  # the worker is killed meanwhile
                        return
                    self.delivered.append("".join(body))
                    conn.sendall(b"250 queued\r\n")
                elif cmd == b"QUIT":
                    conn.sendall(b"221 bye\r\n")
                    return
                else:
                    conn.sendall(b"250 ok\r\n")
        except OSError:
            return


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    celery = Path(sys.executable).parent / "celery"
    return subprocess.Popen(
        [
            str(celery),
            "-A",
            "championship",
            "worker",
            "--loglevel=INFO",
            "--concurrency=1",
            "--pool=solo",
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"killtest{time.monotonic_ns()}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_killed_worker_task_is_redelivered_and_sent_once() -> None:
    from championship.models import Tournament
    from registrations.models import OutboundEmail, Registration

    smtp = SlowSMTP()
    Tournament.objects.create(name="K", slug="k", starts_on="2027-03-14", ends_on="2027-03-14")
    env = {
        **os.environ,
        "REDIS_URL": "redis://127.0.0.1:6379/13",
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp.port}/?tls=0",
        "CELERY_VISIBILITY_TIMEOUT": "4",
        "OUTBOX_SENDING_TIMEOUT": "3",
    }
    subprocess.run(["redis-cli", "-n", "13", "flushdb"], check=True, capture_output=True)
    first = start_worker(env)
    try:
        code = (
            "from championship.models import Tournament; from registrations.services.entries import registration_create;"
            "registration_create(tournament=Tournament.objects.get(slug='k'), name='Kill Test',"
            " email='kill@example.org', phone='+14165550123', club='', experience='club', language='en')"
        )
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=60,
        )
        assert smtp.first_data.wait(60), "the worker never reached the mail server"
        first.send_signal(signal.SIGKILL)  # killed in the middle of the task
        first.wait(30)
        reg = Registration.objects.get(email="kill@example.org")
        row = OutboundEmail.objects.get(object_id=reg.pk, kind="registration_confirm")
        # Claimed (committed) before the mail server was contacted, with its Message-ID.
        assert row.status == "sending" and row.message_id and not smtp.delivered
        time.sleep(5)  # past the visibility and sending timeouts: the e-mail is due again
        second = start_worker(env)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and not smtp.delivered:
                time.sleep(0.3)
            time.sleep(2)  # anything more would show up now
        finally:
            second.terminate()
            second.wait(30)
        row.refresh_from_db()
        assert len(smtp.delivered) == 1, "the e-mail must go out exactly once"
        assert (
            "kill@example.org" in smtp.delivered[0] or "/registration/confirm/" in smtp.delivered[0]
        )
        assert row.status == "sent"
        # The copy the first worker was sending carried the same Message-ID.
        assert f"Message-ID: {row.message_id}" in smtp.held[0]
        assert f"Message-ID: {row.message_id}" in smtp.delivered[0]
    finally:
        if first.poll() is None:
            first.kill()
        smtp.sock.close()
