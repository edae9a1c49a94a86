import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reader.settings")
application = get_wsgi_application()
# Load the URL configuration, and every view with it, now: under `gunicorn --preload` the workers are forked with
# it loaded, instead of each importing the views (numpy and scikit-learn among them, about 2 s) on its first request.
get_resolver().url_patterns
# Everything loaded so far lives as long as the process: keep it out of the collector's walks, which would
# otherwise copy every page the workers share with the master (gunicorn --preload) and re-scan it each time.
gc.freeze()
