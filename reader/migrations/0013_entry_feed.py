"""Entries carry their story's feed, so unread counts by feed read one index (reader.models.Entry): the column,
filled. 0014 then makes it required; on PostgreSQL that must be a transaction of its own, after the fill's
foreign-key checks have run."""
import django.db.models.deletion
from django.db import migrations, models

# Portable SQL (PostgreSQL and SQLite): one pass over the entries, each finding its story by primary key.
FILL = ("UPDATE reader_entry SET feed_id = "
        "(SELECT feed_id FROM reader_story WHERE reader_story.id = reader_entry.story_id)")


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0012_implicit_signals"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="feed",
            field=models.ForeignKey(db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="+", to="reader.feed"),
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
