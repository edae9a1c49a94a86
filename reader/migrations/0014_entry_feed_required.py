"""Entries carry their story's feed (0013 filled it): now required, with the index unread counts read."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0013_entry_feed"),
    ]

    operations = [
        migrations.AlterField(
            model_name="entry",
            name="feed",
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="+",
                                    to="reader.feed"),
        ),
        migrations.AddIndex(
            model_name="entry",
            index=models.Index(fields=["user", "read", "feed", "id"], name="entry_unread_by_feed"),
        ),
    ]
