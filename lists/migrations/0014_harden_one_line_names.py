"""Names and labels saved before control characters were refused become one line: each such character a space."""

import re

from django.db import migrations

# No NUL in the pattern: PostgreSQL text cannot hold one (so no saved name does either).
CONTROL_CHARACTERS = re.compile("[\x01-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def one_line(text: str) -> str:
    return " ".join(CONTROL_CHARACTERS.sub(" ", text).split())


def clean(apps, schema_editor):
    for model, field in (("Roster", "name"), ("RosterUnit", "label")):
        Model = apps.get_model("lists", model)
        for row in Model.objects.filter(**{f"{field}__regex": CONTROL_CHARACTERS.pattern}):
            setattr(row, field, one_line(getattr(row, field)) or "Untitled")
            row.save(update_fields=[field])
    Force = apps.get_model("lists", "Force")
    for force in Force.objects.filter(name__regex=CONTROL_CHARACTERS.pattern):
        taken = set(Force.objects.filter(roster_id=force.roster_id).exclude(pk=force.pk).values_list("name", flat=True))
        name, number = one_line(force.name) or "Platoon", 2
        while name in taken:  # a force's name is its own within the roster
            name, number = f"{one_line(force.name)} ({number})", number + 1
        force.name = name
        force.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [("lists", "0013_events_and_submissions")]

    operations = [migrations.RunPython(clean, migrations.RunPython.noop)]
