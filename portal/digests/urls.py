from django.urls import path

from portal.digests import views

app_name = "digests"
urlpatterns = [
    path("", views.digest_settings, name="settings"),  # the old opt-in page: now the profile page's digest part
    path("send/", views.send_now, name="send_now"),
]
