""""Refresh now" for a user's own feeds: which of them to fetch at once.

Feeds are shared, so a feed fetched a moment ago (by anyone's refresh or the schedule) or being fetched right
now is left alone: a reader pressing r repeatedly must not hammer a publisher.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from ..models import Feed


def feeds_to_refresh(user) -> list[int]:
    now = timezone.now()
    fresh = now - timedelta(seconds=settings.REFRESH_MIN_AGE)
    return list(Feed.objects.filter(subscriptions__user=user)
                .exclude(Q(last_fetched_at__gt=fresh) | Q(locked_until__gt=now))
                .order_by("last_fetched_at").values_list("id", flat=True))
