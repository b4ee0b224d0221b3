"""Rescans update every seen finding's last_seen: drop its index and leave room in each page, so the UPDATE is a
HOT update (no index writes). Deleting a single scan now scans the findings table to null out last_seen; scans are
deleted with their repository, whose findings go with it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("findings", "0005_branchrollup_totals"),
        ("scans", "0004_shards"),
    ]

    operations = [
        migrations.AlterField(
            model_name="finding",
            name="last_seen",
            field=models.ForeignKey(
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="scans.scan",
            ),
        ),
        migrations.RunSQL(
            "ALTER TABLE findings_finding SET (fillfactor = 50)", "ALTER TABLE findings_finding RESET (fillfactor)"
        ),
    ]
