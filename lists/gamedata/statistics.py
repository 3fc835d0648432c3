"""The database's planner statistics refreshed after a bulk write.

PostgreSQL plans a query from statistics its autovacuum gathers in the background, a minute or so after
a write. A read that comes first after a load of thousands of rows (the game's data built for the first
roster) is planned on the figures of the tables as they were, emptied or nearly so: joins of thousands of
rows then run as nested loops over whole tables, minutes for a query of milliseconds. So a load ends by
gathering them itself (`ANALYZE` sees the rows of its own transaction). SQLite plans without them.
"""

from django.apps import apps
from django.db import connection


def refresh_statistics() -> None:
    """Gather the planner's statistics for every table of the app's models (their many-to-many tables too)."""
    if connection.vendor != "postgresql":
        return
    tables = sorted(
        {model._meta.db_table for model in apps.get_app_config("lists").get_models(include_auto_created=True)}
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE " + ", ".join(connection.ops.quote_name(table) for table in tables))
