from django.urls import include, path

urlpatterns = [
    path("", include("lists.urls")),
]

# A refused request (too large, malformed) gets a page that says what to do, not a bare "Bad Request".
handler400 = "lists.web.page_helpers.bad_request"
