from django.urls import path

from lists import views

app_name = "lists"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<slug:system_key>/", views.game, name="game"),
    path("games/<slug:system_key>/armies/<slug:army_key>/", views.army, name="army"),
]
