from django.urls import path

from portal.ports import views

app_name = "ports"
urlpatterns = [
    path("<int:pk>/merge-requests/", views.merge_request_list, name="list"),
    path("<int:pk>/merge-requests/new/", views.new_merge_request, name="new"),
    path("<int:pk>/merge-requests/<int:mr>/", views.merge_request_detail, name="detail"),
    path("<int:pk>/merge-requests/<int:mr>/retry/", views.retry_merge_request, name="retry"),
]
