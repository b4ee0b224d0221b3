from django.urls import path

from portal.accounts import profile, views

app_name = "accounts"
urlpatterns = [
    path("profile/", profile.profile, name="profile"),
    path("team/", views.switch_team, name="switch_team"),
    path("tokens/", views.api_tokens, name="tokens"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
]
