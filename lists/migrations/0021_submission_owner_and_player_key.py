import hashlib

from django.db import migrations, models


def key_players(apps, schema_editor):
    """Each submission's player key: the SHA-256 of what its name reads as. Two lists already under names
    that read the same keep both: the later one's key is made its own (the organiser can remove either)."""
    from lists.rules.validation import name_key

    Submission = apps.get_model("lists", "Submission")
    seen = set()
    for submission in Submission.objects.order_by("event_id", "id"):
        key = hashlib.sha256(name_key(submission.player).encode()).hexdigest()
        if (submission.event_id, key) in seen:
            key = hashlib.sha256(f"{name_key(submission.player)}#{submission.id}".encode()).hexdigest()
        seen.add((submission.event_id, key))
        submission.player_key = key
        submission.save(update_fields=["player_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("lists", "0020_option_force_limits_needs_and_rules"),
    ]

    operations = [
        migrations.AddField(
            model_name="submission",
            name="owner_secret_hash",
            field=models.CharField(blank=True, db_index=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="submission",
            name="player_key",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(key_players, migrations.RunPython.noop),
    ]
