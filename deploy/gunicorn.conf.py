"""gunicorn settings for production (see docs/deploy.md)."""

import gc
import itertools
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
    worker.nardy_requests = itertools.count(1)  # type: ignore[attr-defined]  (post_request)


#: A worker loads much of what its pages need only when the first requests ask for it (view
#: modules behind the URL patterns, compiled templates, the catalogues of both languages):
#: about 40,000 more objects, which every full collection looked at again (15-40 ms of CPU
#: each on a slow core). What a worker has after these many requests is frozen too: the
#: tablets' pool, which serves a few requests a second, is warm after the first.
WARM_REQUESTS = (50, 500, 5000)


def post_request(worker: object, req: object, environ: object, resp: object) -> None:
    """Counts the worker's requests (``itertools.count``, made by ``post_worker_init``, is
    atomic under the interpreter's lock: the worker's threads share it) and freezes what the
    worker has at each of ``WARM_REQUESTS``."""
    if next(worker.nardy_requests) in WARM_REQUESTS:  # type: ignore[attr-defined]
        gc.freeze()
