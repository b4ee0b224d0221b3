from django.urls import path

from portal.dashboards import views

app_name = "dashboards"
urlpatterns = [
    path("", views.portfolio, name="portfolio"),
    path("repositories/<int:pk>/dashboard/", views.repository_dashboard, name="repository"),
    path("repositories/<int:pk>/dashboard/branches/", views.repository_branches, name="branches"),
]
