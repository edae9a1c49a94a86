"""Admin: feeds with their health, and the rest of the reader's data."""
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db import models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.timesince import timesince
from kombu.exceptions import OperationalError

import extraction

from . import queue
from .models import Entry, Feed, Rating, Rule, Story, Subscription, TasteModel


def method_choices():
    return [("", f"site default ({settings.EXTRACTION_METHOD})")] + [
        (name, f"{name}: {extraction.methods.PURPOSES[name]}") for name in extraction.METHODS]


# A pasted address without a scheme is read as https, the form default Django 6 takes; the old http default
# also warned on every admin form. The admin builds its forms anew with these overrides; FeedForm's own fields,
# built when this module loads, take the same through its callback.
URL_FIELDS = {models.URLField: {"assume_scheme": "https"}}


def https_form_field(db_field, **kwargs):
    return db_field.formfield(**{**URL_FIELDS.get(type(db_field), {}), **kwargs})


class FeedForm(forms.ModelForm):
    extraction_method = forms.ChoiceField(choices=method_choices, required=False,
                                          help_text="how this feed's story pages are extracted")

    class Media:
        css = {"all": ["reader/admin.css"]}

    class Meta:
        model = Feed
        fields = "__all__"
        formfield_callback = https_form_field


class FailingFilter(admin.SimpleListFilter):
    title = "health"
    parameter_name = "health"

    def lookups(self, request, model_admin):
        return [("ok", "fetching fine"), ("failing", "failing"), ("days", "failing for a day or more")]

    def queryset(self, request, queryset):
        if self.value() == "ok":
            return queryset.filter(failing_since__isnull=True)
        if self.value() == "failing":
            return queryset.filter(failing_since__isnull=False)
        if self.value() == "days":
            return queryset.filter(failing_since__lte=timezone.now() - timedelta(days=1))
        return queryset


class MethodFilter(admin.SimpleListFilter):
    """Extraction method, with the site default named (the plain field filter listed it as a blank entry)."""
    title = "extraction method"
    parameter_name = "method"

    def lookups(self, request, model_admin):
        return [("default", f"site default ({settings.EXTRACTION_METHOD})")] + [(m, m) for m in extraction.METHODS]

    def queryset(self, request, queryset):
        if self.value() == "default":
            return queryset.filter(extraction_method="")
        if self.value():
            return queryset.filter(extraction_method=self.value())
        return queryset


class StoryMethodFilter(MethodFilter):
    """The method that extracted the story, from the list of methods: asking the table which ones occur scanned
    every story on each visit of the list."""

    def lookups(self, request, model_admin):
        return [("default", "none (not extracted)")] + [(m, m) for m in extraction.METHODS]


class FormatFilter(admin.SimpleListFilter):
    """The feed's format, with a feed not yet read named (the plain field filter listed it as an empty link)."""
    title = "format"
    parameter_name = "format"

    def lookups(self, request, model_admin):
        known = model_admin.get_queryset(request).exclude(format="").values_list("format", flat=True)
        return [("unknown", "not read yet")] + [(f, f) for f in sorted(set(known))]

    def queryset(self, request, queryset):
        if self.value() == "unknown":
            return queryset.filter(format="")
        return queryset.filter(format=self.value()) if self.value() else queryset


_UNITS = ((86400, "d"), (3600, "h"), (60, "min"), (1, "s"))


def duration(seconds: int) -> str:
    """43800 -> '12 h 10 min': the two largest units, as people read an interval."""
    parts = []
    for size, unit in _UNITS:
        if seconds >= size or (not parts and size == 1):
            count, seconds = divmod(seconds, size)
            parts.append(f"{count} {unit}")
    return " ".join(parts[:2])


@admin.register(Feed)
class FeedAdmin(admin.ModelAdmin):
    form = FeedForm
    formfield_overrides = URL_FIELDS
    list_display = ("__str__", "url", "format", "last_fetched_at", "next_fetch_at", "every", "error_count",
                    "failing_for", "last_error_short", "story_count", "extraction_method")
    list_filter = (FailingFilter, FormatFilter, MethodFilter)
    search_fields = ("url", "title")
    ordering = ("-error_count", "title")
    # The worker's lock is never the form's: a form loaded before a worker took the lock would free it on save.
    readonly_fields = ("etag", "last_modified", "last_fetched_at", "locked_until", "locked_by", "error_count",
                       "last_error", "last_error_at", "failing_since", "notice", "format")
    actions = ["fetch_now"]
    ERROR_CHARS = 120

    def get_queryset(self, request):
        # Counted per listed feed through the (feed, published) index; a join grouped every story at each visit.
        stories = Story.objects.filter(feed=OuterRef("pk")).order_by().values("feed").annotate(n=Count("id"))
        return super().get_queryset(request).annotate(story_count=Coalesce(Subquery(stories.values("n")), 0))

    @admin.display(ordering="story_count", description="stories")
    def story_count(self, feed):
        return feed.story_count

    @admin.display(ordering="fetch_interval", description="fetched every")
    def every(self, feed):
        return duration(feed.fetch_interval)

    @admin.display(description="last error")
    def last_error_short(self, feed):
        """Cut with an ellipsis, so a cut error does not read as the whole; the whole one shows on hover."""
        if len(feed.last_error) <= self.ERROR_CHARS:
            return feed.last_error
        return format_html('<span title="{}">{}</span>', feed.last_error,
                           Truncator(feed.last_error).chars(self.ERROR_CHARS))

    @admin.display(ordering="failing_since", description="failing for")
    def failing_for(self, feed):
        return timesince(feed.failing_since) if feed.failing_since else ""

    @admin.action(description="Fetch now")
    def fetch_now(self, request, queryset):
        ids = list(queryset.values_list("id", flat=True))
        try:  # now, over one broker connection: a broker that is down is reported here, not as a server error
            queue.send_each(queue.FETCH_FEED, [(feed_id,) for feed_id in ids])
        except OperationalError as exc:
            self.message_user(request, f"Could not queue the fetch: the task broker is unreachable ({exc}).",
                              messages.ERROR)
            return
        self.message_user(request, f"Queued {len(ids)} feed(s) for fetching.", messages.SUCCESS)


@admin.register(Story)
class StoryAdmin(admin.ModelAdmin):
    formfield_overrides = URL_FIELDS
    list_display = ("title", "feed", "published", "extraction_status", "extraction_method", "shows")
    # Published as ranges (today, past 7 days...), not a date hierarchy: its years or days are a DISTINCT over
    # every story's date, 6 s a visit with 300,000 stories.
    list_filter = ("extraction_status", StoryMethodFilter, ("published", admin.DateFieldListFilter))
    search_fields = ("title", "url", "guid")
    raw_id_fields = ("feed",)
    readonly_fields = ("content_hash", "link_hash", "summary_length", "extraction_error", "enclosures", "thumbnail")

    @admin.display(description="reader shows")
    def shows(self, story):
        return "extracted page" if story.best_is_extracted else "feed content"


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
    # The story's feed, copied for the unread counts: never chosen (the form listed every feed), always the story's.
    readonly_fields = ("feed",)

    def save_model(self, request, entry, form, change):
        entry.feed_id = entry.story.feed_id
        super().save_model(request, entry, form, change)


@admin.register(Rule)
class RuleAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "value", "action")


@admin.register(TasteModel)
class TasteModelAdmin(admin.ModelAdmin):
    list_display = ("user", "version", "rating_count", "trained_at")
    exclude = ("data",)
