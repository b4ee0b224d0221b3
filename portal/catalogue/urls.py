from django.urls import path

from portal.catalogue import views

app_name = "catalogue"
urlpatterns = [
    path("", views.rule_list, name="rules"),
    path("<str:code>/", views.rule_detail, name="rule"),
]
