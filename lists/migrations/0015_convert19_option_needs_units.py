from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lists", "0014_harden_one_line_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="unitoption",
            name="needs_units",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
