"""A roster chooses the house-rule overlays it plays; a roster that already bought their house rules plays them."""

from django.db import migrations, models


def play_what_was_bought(apps, schema_editor):
    RosterHouseRule = apps.get_model("lists", "RosterHouseRule")
    Roster = apps.get_model("lists", "Roster")
    for roster_id, system_id in RosterHouseRule.objects.values_list("roster_id", "rule__system_id").distinct():
        Roster.overlays.through.objects.get_or_create(roster_id=roster_id, gamesystem_id=system_id)


class Migration(migrations.Migration):
    dependencies = [("lists", "0016_option_least_in")]

    operations = [
        migrations.AddField(
            model_name="roster",
            name="overlays",
            field=models.ManyToManyField(
                blank=True, limit_choices_to={"kind": "overlay"}, related_name="played_in", to="lists.gamesystem"
            ),
        ),
        migrations.RunPython(play_what_was_bought, migrations.RunPython.noop),
    ]
