from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scans", "0006_scan_builds"),
    ]

    operations = [
        migrations.AddField(
            model_name="scan",
            name="submodules",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
