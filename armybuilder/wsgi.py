"""WSGI entry point for production servers."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")

application = get_wsgi_application()

# Build the PDF fonts and stylesheet and every game's data now: with gunicorn's preload_app the workers
# are forked with them ready, so no visitor's first page or PDF of a worker pays for them.
from lists.cards import warm_up  # noqa: E402
from lists.gamedata.loading import warm_game_data  # noqa: E402

warm_up()
warm_game_data()
