from django.urls import include, path

urlpatterns = [
    path("", include("lists.urls")),
]
