"""The Django project package and the tournament app.

The Celery app lives in ``championship.celery`` (``celery -A championship`` finds it there) and
is loaded by ``ChampionshipConfig.ready()``, so that importing the pure subpackage
``championship.pairing`` does not import Django."""
