"""The Celery application. Without ``REDIS_URL`` tasks run inline (``task_always_eager``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")

app = Celery("championship")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
