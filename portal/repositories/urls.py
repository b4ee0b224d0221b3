from django.urls import path

from portal.repositories import views

app_name = "repositories"
urlpatterns = [
    path("", views.repository_list, name="list"),
    path("<int:pk>/", views.repository_detail, name="detail"),
    path("<int:pk>/scan/", views.start_scan, name="scan"),
    path("<int:pk>/hip-builds/", views.decide_hip_builds, name="hip_builds"),
    path("new/<int:team_id>/", views.add_repository, name="add"),
    path("<int:pk>/settings/", views.repository_settings, name="settings"),
]
