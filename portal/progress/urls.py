from django.urls import path

from portal.progress import views

app_name = "progress"
urlpatterns = [
    path("repositories/<int:pk>/report/", views.repository_report, name="repository_report"),
    path("teams/<int:team_id>/report/", views.team_report, name="team_report"),
]
