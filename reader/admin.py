"""Admin: feeds with their health, and the rest of the reader's data."""
from django.contrib import admin, messages
from django.db.models import Count

from .models import Entry, Feed, Rating, Rule, Story, Subscription, TasteModel
from .tasks import fetch_feed


@admin.register(Feed)
class FeedAdmin(admin.ModelAdmin):
    list_display = ("__str__", "url", "last_fetched_at", "next_fetch_at", "error_count", "last_error_short",
                    "story_count", "extraction_method")
    list_filter = ("extraction_method",)
    search_fields = ("url", "title")
    ordering = ("-error_count", "title")
    actions = ["fetch_now"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(story_count=Count("stories"))

    @admin.display(ordering="story_count", description="stories")
    def story_count(self, feed):
        return feed.story_count

    @admin.display(description="last error")
    def last_error_short(self, feed):
        return feed.last_error[:120]

    @admin.action(description="Fetch now")
    def fetch_now(self, request, queryset):
        ids = list(queryset.values_list("id", flat=True))
        for feed_id in ids:
            fetch_feed.delay(feed_id)
        self.message_user(request, f"Queued {len(ids)} feed(s) for fetching.", messages.SUCCESS)


@admin.register(Story)
class StoryAdmin(admin.ModelAdmin):
    list_display = ("title", "feed", "published", "extraction_status", "extraction_method")
    list_filter = ("extraction_status", "extraction_method")
    search_fields = ("title", "url", "guid")
    raw_id_fields = ("feed",)
    date_hierarchy = "published"


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "feed", "folder", "created_at")
    raw_id_fields = ("feed",)
    search_fields = ("user__username", "feed__url")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "story", "value", "updated_at")
    raw_id_fields = ("story",)
    list_filter = ("value",)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("user", "story", "score", "recommended", "read", "saved")
    raw_id_fields = ("story",)


@admin.register(Rule)
class RuleAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "value", "action")


@admin.register(TasteModel)
class TasteModelAdmin(admin.ModelAdmin):
    list_display = ("user", "version", "rating_count", "trained_at")
    exclude = ("data",)
