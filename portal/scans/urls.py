from django.urls import path

from portal.scans import views
from portal.scans.exports import views as export_views

app_name = "scans"
urlpatterns = [
    path("<int:pk>/", views.scan_detail, name="detail"),
    path("<int:pk>/progress/", views.scan_progress, name="progress"),
    path("<int:pk>/export/<str:kind>/", export_views.export, name="export"),  # sarif, csv, json
]
