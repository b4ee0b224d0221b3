from django.urls import path

from portal.accounts import views

app_name = "accounts"
urlpatterns = [
    path("team/", views.switch_team, name="switch_team"),
]
