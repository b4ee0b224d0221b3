from django.urls import path

from portal.webhooks import views

app_name = "webhooks"
urlpatterns = [
    path("<int:repository_id>/<str:provider>/", views.receive, name="receive"),
]
