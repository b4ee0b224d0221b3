from django.urls import path

from portal.statuses import views

app_name = "statuses"
urlpatterns = [
    path("<int:team_id>/", views.team_notifications, name="notifications"),
]
