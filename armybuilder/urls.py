from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),  # the operator's login (staff users), and the operator's page beside it
    path("", include("lists.urls")),
]

# A refused request (too large, malformed) gets a page that says what to do, not a bare "Bad Request".
handler400 = "lists.web.page_helpers.bad_request"
