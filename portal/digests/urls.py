from django.urls import path

from portal.digests import views

app_name = "digests"
urlpatterns = [
    path("", views.digest_settings, name="settings"),
]
