"""gunicorn settings for production (see docs/deploy.md)."""

import gc
import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", str(multiprocessing.cpu_count() * 2 + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
timeout = 30
graceful_timeout = 30
keepalive = 5
# A worker is replaced after this many requests (a guard against slow leaks). A new worker
# imports the application (about a second of CPU), so replacements are rare and spread apart:
# at 2,000 ± 200, under a hundred requests a second, all four were replaced within the same
# four seconds every minute and a half, and everyone waited (docs/performance.md).
max_requests = 20000
max_requests_jitter = 10000
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker: object) -> None:
    """The objects the application made as it loaded (about 110,000: modules, models, URL
    patterns) are moved out of the collector's reach: a full collection, which stops every
    thread of the worker, looked at all of them and took 50-270 ms under the hall's load; now
    it looks at what requests left and takes a fifth of that (docs/performance.md, "The
    hall")."""
    gc.freeze()
