"""The Django project package and the tournament app."""

from .celery import app as celery_app

__all__ = ["celery_app"]
