"""A roster holds forces (platoons), each with its organisation; every unit belongs to one.

Each existing roster gets one force, "Platoon 1", with the organisation the roster
had and all its units; the roster's own organisation goes (the forces hold it now).
"""

import django.db.models.deletion
from django.db import migrations, models


def one_force_per_roster(apps, schema_editor):
    Roster = apps.get_model("lists", "Roster")
    Force = apps.get_model("lists", "Force")
    RosterUnit = apps.get_model("lists", "RosterUnit")
    for roster in Roster.objects.all().iterator():
        force = Force.objects.create(
            roster=roster, position=0, name="Platoon 1", organisation_id=roster.organisation_id
        )
        RosterUnit.objects.filter(roster=roster).update(force=force)


def back_to_one_organisation(apps, schema_editor):
    Roster = apps.get_model("lists", "Roster")
    Force = apps.get_model("lists", "Force")
    for roster in Roster.objects.all().iterator():
        first = Force.objects.filter(roster=roster).order_by("position", "id").first()
        roster.organisation_id = first.organisation_id if first else None
        roster.save(update_fields=["organisation"])


class Migration(migrations.Migration):
    dependencies = [
        ("lists", "0009_option_prices_quality_and_theatre_limits"),
    ]

    operations = [
        migrations.CreateModel(
            name="Force",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("position", models.PositiveIntegerField(default=0)),
                ("name", models.CharField(max_length=120)),
                (
                    "organisation",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        to="lists.organisation",
                    ),
                ),
                (
                    "roster",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="forces", to="lists.roster"
                    ),
                ),
            ],
            options={"ordering": ["position", "id"]},
        ),
        migrations.AddField(
            model_name="rosterunit",
            name="force",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.CASCADE, related_name="units", to="lists.force"
            ),
        ),
        migrations.RunPython(one_force_per_roster, back_to_one_organisation),
        migrations.AlterField(
            model_name="rosterunit",
            name="force",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="units", to="lists.force"
            ),
        ),
        migrations.RemoveField(model_name="roster", name="organisation"),
        migrations.AddConstraint(
            model_name="force",
            constraint=models.UniqueConstraint(fields=("roster", "name"), name="one_force_of_a_name_per_roster"),
        ),
    ]
