from django.urls import path

from portal.findings import views

app_name = "findings"
urlpatterns = [
    path("", views.finding_list, name="list"),
    path("bulk/", views.bulk_triage, name="bulk"),
    path("<int:pk>/", views.finding_detail, name="detail"),
    path("<int:pk>/triage/", views.triage, name="triage"),
    path("<int:pk>/assign/", views.assign, name="assign"),
    path("<int:pk>/comment/", views.comment, name="comment"),
]
