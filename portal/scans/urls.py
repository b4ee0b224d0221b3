from django.urls import path

from portal.scans import views

app_name = "scans"
urlpatterns = [
    path("<int:pk>/", views.scan_detail, name="detail"),
    path("<int:pk>/progress/", views.scan_progress, name="progress"),
]
