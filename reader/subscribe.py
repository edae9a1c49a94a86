"""Subscribing a user to a feed URL, shared by the UI, the API and the add_feed command."""
from django.db import transaction

from .models import Entry, Feed, Subscription


@transaction.atomic
def subscribe(user, url: str, folder: str = "") -> tuple[Feed, bool]:
    """Subscribe user to the feed at url; returns (feed, created_subscription). Existing stories join the feed."""
    feed, _ = Feed.objects.get_or_create(url=url)
    _, created = Subscription.objects.get_or_create(user=user, feed=feed, defaults={"folder": folder})
    if created:
        Entry.objects.bulk_create(
            [Entry(user=user, story_id=sid) for sid in feed.stories.values_list("id", flat=True)],
            ignore_conflicts=True,
        )
    return feed, created
