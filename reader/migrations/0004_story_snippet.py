from django.db import migrations, models


def fill_snippets(apps, schema_editor):
    # The snippet rule lives on the model (best article, headline dropped); the historical model has no
    # methods, so the current class computes it, reading and writing only columns that exist here.
    from reader.models import Story

    fields = ["id", "title", "summary_html", "extracted_text", "extraction_status", "summary_length"]
    batch = []
    for story in Story.objects.only(*fields).order_by("id").iterator(chunk_size=500):
        story.refresh_snippet()
        batch.append(story)
        if len(batch) == 500:
            Story.objects.bulk_update(batch, ["snippet"])
            batch = []
    Story.objects.bulk_update(batch, ["snippet"])


class Migration(migrations.Migration):

    dependencies = [
        ("reader", "0003_reliability_feed_locked_by"),
    ]

    operations = [
        migrations.AddField(
            model_name="story",
            name="snippet",
            field=models.TextField(blank=True, help_text="the opening words of the better article, for the feed page"),
        ),
        migrations.RunPython(fill_snippets, migrations.RunPython.noop),
    ]
