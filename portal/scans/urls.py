from django.urls import path

from portal.scans import export_views, views

app_name = "scans"
urlpatterns = [
    path("<int:pk>/", views.scan_detail, name="detail"),
    path("<int:pk>/progress/", views.scan_progress, name="progress"),
    path("<int:pk>/export/<str:kind>/", export_views.export, name="export"),  # sarif, csv, json
]
