"""The WSGI application, as the production server loads it in each worker process (granian:
deploy/systemd/nardy-web.service, docs/deploy.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")
application = get_wsgi_application()

from common.warm import freeze_as_warmed  # noqa: E402  (after the settings are loaded)

freeze_as_warmed()
