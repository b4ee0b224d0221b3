from django.urls import path

from portal.accounts import views

app_name = "accounts"
urlpatterns = [
    path("team/", views.switch_team, name="switch_team"),
    path("tokens/", views.api_tokens, name="tokens"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
]
