from django.urls import path

from portal.files import views

app_name = "files"
urlpatterns = [
    path("<int:pk>/files/<path:path>", views.file_page, name="file"),
    path("<int:pk>/review/<path:path>", views.review, name="review"),
    path("<int:pk>/lines/<path:path>", views.source_lines, name="lines"),
    path("<int:pk>/translation/<path:path>", views.translation, name="translation"),
    path("<int:pk>/patch/", views.patch, name="patch"),
]
