from django.urls import path

from lists import api, edit_views, event_views, offline_views, roster_views, views
from lists.battlescribe_views import export_battlescribe

app_name = "lists"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<slug:system_key>/", views.game, name="game"),
    path("games/<slug:system_key>/armies/<slug:army_key>/", views.army, name="army"),
    # Rosters: start or import, then edit by secret link, share by id.
    path("rosters/new/", roster_views.start_roster, name="start"),
    path("rosters/import/", roster_views.import_roster, name="import"),
    path("rosters/mine/", roster_views.my_rosters, name="mine"),
    path("rosters/mine/kept/", offline_views.my_rosters_kept, name="mine-kept"),
    path("e/<str:secret>/", roster_views.edit_roster, name="edit"),
    path("e/<str:secret>/settings/", edit_views.update_settings, name="edit-settings"),
    path("e/<str:secret>/units/", edit_views.add_unit, name="add-unit"),
    path("e/<str:secret>/units/<int:unit_id>/", edit_views.update_unit, name="update-unit"),
    path("e/<str:secret>/units/<int:unit_id>/remove/", edit_views.remove_unit, name="remove-unit"),
    path("e/<str:secret>/units/<int:unit_id>/duplicate/", edit_views.duplicate_unit, name="duplicate-unit"),
    path("e/<str:secret>/undo/", edit_views.undo_remove, name="undo-remove"),
    path("e/<str:secret>/forces/", edit_views.add_force, name="add-force"),
    path("e/<str:secret>/forces/<int:force_id>/", edit_views.update_force, name="update-force"),
    path("e/<str:secret>/forces/<int:force_id>/remove/", edit_views.remove_force, name="remove-force"),
    path("r/<str:share_id>/", roster_views.share_roster, name="share"),
    path("r/<str:share_id>/roster.yaml", roster_views.export, {"fmt": "yaml"}, name="export-yaml"),
    path("r/<str:share_id>/roster.json", roster_views.export, {"fmt": "json"}, name="export-json"),
    path("r/<str:share_id>/roster.ros", export_battlescribe, {"zipped": False}, name="export-ros"),
    path("r/<str:share_id>/roster.rosz", export_battlescribe, {"zipped": True}, name="export-rosz"),
    path("r/<str:share_id>/copy/", roster_views.copy_roster, name="copy"),
    path("r/<str:share_id>/cards.pdf", roster_views.cards, name="cards"),
    path("r/<str:share_id>/list.pdf", roster_views.army_list, name="list"),
    path("r/<str:share_id>/roster.txt", roster_views.text, name="export-text"),
    # Tournament events: run one, submit to it, and the organiser's table by secret link.
    path("events/new/", event_views.new_event, name="event-new"),
    path("events/<str:public_id>/", event_views.public_event, name="event"),
    path("events/<str:public_id>/submit/", event_views.submit, name="event-submit"),
    path("events/<str:public_id>/lists/<int:submission_id>/", event_views.public_submission, name="event-list"),
    path("events/o/<str:secret>/", event_views.organiser, name="event-organiser"),
    path("events/o/<str:secret>/submissions.json", event_views.submissions_json, name="event-json"),
    path("events/o/<str:secret>/submissions.csv", event_views.submissions_csv, name="event-csv"),
    path("events/o/<str:secret>/pack.pdf", event_views.pack, name="event-pack"),
    path("events/o/<str:secret>/<str:action>/", event_views.organiser_action, name="event-action"),
    path("events/o/<str:secret>/s/<int:submission_id>/", event_views.organiser_submission, name="event-submission"),
    path(
        "events/o/<str:secret>/s/<int:submission_id>/remove/",
        event_views.remove_submission,
        name="event-remove",
    ),
    path("events/o/<str:secret>/s/<int:submission_id>/cards.pdf", event_views.submission_cards, name="event-cards"),
    path("e/<str:secret>/submit-to-event/", event_views.submit_roster, name="submit-to-event"),
    # Organisers check a printed fingerprint.
    path("verify/", roster_views.verify, name="verify-form"),
    path("verify/<str:code>/", roster_views.verify, name="verify"),
    # Working offline: the installable app and the service worker that keeps rosters on the device.
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_views.manifest, name="manifest"),
    path("offline/", offline_views.offline, name="offline"),
    # The JSON API over the game data.
    path("api/", api.index, name="api-index"),
    path("api/games/", api.games, name="api-games"),
    path("api/games/<slug:system_key>/", api.game, name="api-game"),
    path("api/games/<slug:system_key>/armies/", api.armies, name="api-armies"),
    path("api/games/<slug:system_key>/armies/<slug:army_key>/", api.army, name="api-army"),
    path("api/games/<slug:system_key>/units/<slug:unit_key>/", api.unit, name="api-unit"),
    path("api/games/<slug:system_key>/weapons/", api.weapons, name="api-weapons"),
    path("api/games/<slug:system_key>/weapons/<slug:weapon_key>/", api.weapon, name="api-weapon"),
    path("api/games/<slug:system_key>/rules/", api.rules, name="api-rules"),
    path("api/games/<slug:system_key>/rules/<slug:rule_key>/", api.rule, name="api-rule"),
    path("api/games/<slug:system_key>/officer-ranks/", api.ranks, name="api-ranks"),
    path("api/games/<slug:system_key>/qualities/", api.qualities, name="api-qualities"),
]
