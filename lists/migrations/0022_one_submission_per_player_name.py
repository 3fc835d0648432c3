from django.db import migrations, models


class Migration(migrations.Migration):
    """Apart from 0021's data migration: PostgreSQL alters no table whose rows changed in the same transaction."""

    dependencies = [
        ("lists", "0021_submission_owner_and_player_key"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="submission",
            name="one_submission_per_player",
        ),
        migrations.AddConstraint(
            model_name="submission",
            constraint=models.UniqueConstraint(fields=("event", "player_key"), name="one_submission_per_player_name"),
        ),
    ]
