"""The portal's WSGI application with static files served, for the browser tests' gunicorn.

Production serves /static/ from a web server in front of gunicorn; the tests have none, and without the
stylesheet and htmx (a static file of django-htmx) the pages would not behave as they do for users. Django's
StaticFilesHandler is what its own LiveServerTestCase uses: it serves from the finders, DEBUG or not.
"""

from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.wsgi import get_wsgi_application

application = StaticFilesHandler(get_wsgi_application())
