from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lists", "0011_unit_limit_per_force_or_roster"),
    ]

    operations = [
        migrations.AddField(
            model_name="unittype",
            name="force_limits",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="qualitycost",
            name="army_points",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="qualitycost",
            name="sizes",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="unitoption",
            name="quality_max",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="unitoption",
            name="in_size",
            field=models.BooleanField(default=False),
        ),
    ]
