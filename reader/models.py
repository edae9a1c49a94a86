"""Feeds, their stories, who subscribes, and what each user rated, read, saved and is shown."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.text import Truncator

from extraction.render import html_to_text


class Feed(models.Model):
    url = models.URLField(max_length=2000, unique=True)
    title = models.CharField(max_length=500, blank=True, help_text="the feed's own title, from its last good fetch")
    site_url = models.URLField(max_length=2000, blank=True)
    etag = models.CharField(max_length=500, blank=True)
    last_modified = models.CharField(max_length=100, blank=True)
    last_fetched_at = models.DateTimeField(null=True, blank=True)
    next_fetch_at = models.DateTimeField(default=timezone.now, db_index=True)
    fetch_interval = models.PositiveIntegerField(default=3600, help_text="seconds between refreshes")
    locked_until = models.DateTimeField(null=True, blank=True, help_text="a worker is fetching it until then")
    locked_by = models.CharField(max_length=64, blank=True, help_text="the task holding the lock")
    error_count = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    failing_since = models.DateTimeField(null=True, blank=True, help_text="first error of the current failing run")
    notice = models.TextField(blank=True, help_text="a note from the last good fetch, e.g. entries left out")
    format = models.CharField(max_length=20, blank=True, help_text="rss20, atom10, json1... as detected")
    extraction_method = models.CharField(
        max_length=40, blank=True, help_text="extraction method for this feed's pages; blank uses the site setting"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # The healing sweep's scan for locks their dead holder left: held locks are few among a million feeds.
        indexes = [models.Index(fields=["locked_until"], name="feed_held_lock", condition=~models.Q(locked_by=""))]

    def __str__(self) -> str:
        return self.title or self.url


class Story(models.Model):
    class Extraction(models.TextChoices):
        PENDING = "pending"
        DONE = "done"
        FAILED = "failed"

    feed = models.ForeignKey(Feed, on_delete=models.CASCADE, related_name="stories")
    guid = models.CharField(max_length=1000)
    url = models.URLField(max_length=2000, blank=True)
    title = models.CharField(max_length=1000, blank=True)
    author = models.CharField(max_length=500, blank=True)
    published = models.DateTimeField(default=timezone.now, db_index=True)
    tags = models.JSONField(default=list, blank=True)
    summary_html = models.TextField(blank=True, help_text="the feed's own content, sanitized")
    summary_length = models.PositiveIntegerField(default=0, help_text="characters of text in the feed's content")
    content_hash = models.CharField(max_length=64, blank=True, db_index=True)
    link_hash = models.CharField(max_length=64, blank=True, help_text="hash of the normalised link, for dedupe")
    enclosures = models.JSONField(default=list, blank=True, help_text="[{url, type, length}] from the feed")
    thumbnail = models.URLField(max_length=2000, blank=True, help_text="the feed's media thumbnail")
    extracted_text = models.TextField(blank=True)
    extracted_html = models.TextField(blank=True, help_text="the extracted article, sanitized")
    lead_image = models.URLField(max_length=2000, blank=True)
    extraction_method = models.CharField(max_length=40, blank=True)
    extraction_status = models.CharField(max_length=10, choices=Extraction.choices, default=Extraction.PENDING)
    extraction_error = models.TextField(blank=True)
    # Stamped when the page task is queued, for the healing sweep (reader/ingestion/healing.py) to find pages whose
    # message a dead worker or its broker lost.
    page_due_at = models.DateTimeField(null=True, blank=True, help_text="when its queued page task was due to run")
    page_batch = models.CharField(max_length=32, blank=True, help_text="the scoring batch its page task ticks off")
    page_requeues = models.PositiveSmallIntegerField(default=0, help_text="times the healing sweep queued it again")
    snippet = models.TextField(blank=True, help_text="the opening words of the better article, for the feed page")
    features = models.TextField(blank=True, help_text="the recommender's features of the story, as JSON")
    features_at = models.DateTimeField(null=True, blank=True, help_text="the updated_at the features were made from")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["feed", "guid"], name="story_unique_guid_per_feed")]
        indexes = [models.Index(fields=["feed", "-published"]),
                   models.Index(fields=["feed", "link_hash"], name="story_feed_link"),
                   # The healing sweep's scan: pending stories are few among millions.
                   models.Index(fields=["page_due_at"], name="story_pending_due",
                                condition=models.Q(extraction_status="pending"))]
        verbose_name_plural = "stories"

    def __str__(self) -> str:
        return self.title or self.url or self.guid

    # The feed's own content is clutter-free and the publisher's; the extracted page wins only when
    # the feed carries a teaser, i.e. clearly less text than the page's article.
    TEASER_RATIO = 0.8

    @property
    def best_is_extracted(self) -> bool:
        if self.extraction_status != self.Extraction.DONE or not self.extracted_text:
            return False
        return self.summary_length < self.TEASER_RATIO * len(self.extracted_text)

    @property
    def best_html(self) -> str:
        """The better article to show, as sanitized HTML: the extracted page or the feed's content."""
        return self.extracted_html if self.best_is_extracted else self.summary_html

    @property
    def best_text(self) -> str:
        """Plain text of best_html, for ranking and search."""
        if self.best_is_extracted:
            return self.extracted_text
        return html_to_text(self.summary_html)

    SNIPPET_WORDS = 40

    def refresh_snippet(self) -> None:
        """Stored, not computed per view: the feed page shows 40 snippets and must not load 40 articles."""
        text = " ".join(self.best_text.split())
        if self.title and text.startswith(self.title):  # extracted articles often open with their headline
            text = text[len(self.title):].lstrip()
        self.snippet = Truncator(text).words(self.SNIPPET_WORDS)


class Subscription(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscriptions")
    feed = models.ForeignKey(Feed, on_delete=models.CASCADE, related_name="subscriptions")
    folder = models.CharField(max_length=200, blank=True)
    # Feeds are shared: a name from one user's OPML file is theirs alone, never the feed's title for everyone.
    title = models.CharField(max_length=500, blank=True, help_text="this user's own name for the feed")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "feed"], name="subscription_unique")]

    def __str__(self) -> str:
        return f"{self.user} → {self.name}"

    @property
    def name(self) -> str:
        """The feed as this user sees it named: their own label, else the feed's title, else its address."""
        return self.title or str(self.feed)


class Rating(models.Model):
    """The source of truth for a user's taste: models are rebuilt from these."""

    GOOD, BAD = 1, -1
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="ratings")
    value = models.SmallIntegerField(choices=[(GOOD, "good"), (BAD, "bad")])
    # What the reader saw when rating the story (the guess the taste page's chart holds against the rating);
    # null when the story had no entry or no score yet.
    shown_score = models.FloatField(null=True, blank=True)
    shown_recommended = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "story"], name="rating_unique")]

    def __str__(self) -> str:  # the admin's page titles and breadcrumbs, instead of "Rating object (12)"
        return f"{self.user} rated {self.story}: {self.get_value_display()}"

    @property
    def good(self) -> bool:
        return self.value == self.GOOD


class EntryQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        missing = {entry.story_id for entry in objs if entry.feed_id is None}
        if missing:
            feeds = dict(Story.objects.filter(id__in=missing).values_list("id", "feed_id"))
            for entry in objs:
                if entry.feed_id is None:
                    entry.feed_id = feeds.get(entry.story_id)
        return super().bulk_create(objs, *args, **kwargs)


class Entry(models.Model):
    """A story as it appears in one user's feed: the model's score, read and saved marks.

    The story's feed is kept on the entry too, so that counting a user's unread stories by feed reads one index
    and never joins their stories (reader/unread_cache.py). A story never moves to another feed, so the copy cannot
    go stale; it is filled from the story whenever an entry is made without it (save and bulk_create)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries")
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="entries")
    feed = models.ForeignKey(Feed, on_delete=models.CASCADE, related_name="+", db_index=False)
    score = models.FloatField(default=0.5)
    recommended = models.BooleanField(default=False)  # until the model has a reason to recommend it
    reasons = models.JSONField(default=list, blank=True)
    read = models.BooleanField(default=False)
    saved = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "story"], name="entry_unique")]
        indexes = [
            models.Index(fields=["user", "-score", "-id"], name="entry_ranked"),
            models.Index(fields=["user", "recommended", "-score", "-id"], name="entry_recommended"),
            models.Index(fields=["user", "read", "-score", "-id"], name="entry_unread"),
            models.Index(fields=["user", "saved", "-score", "-id"], name="entry_saved"),
            models.Index(fields=["user", "read", "feed", "id"], name="entry_unread_by_feed"),
        ]
        verbose_name_plural = "entries"

    objects = EntryQuerySet.as_manager()

    def __str__(self) -> str:  # the admin's page titles and breadcrumbs, instead of "Entry object (12)"
        return f"{self.story} in {self.user}'s feed"

    def save(self, *args, **kwargs):
        if self.feed_id is None and self.story_id is not None:
            self.feed_id = self.story.feed_id
        super().save(*args, **kwargs)


class Preferences(models.Model):
    """A user's choices about what the reader may learn from (one row, made when first changed)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences")
    # Learn from what the user opens, reads to the end, saves and scrolls past (reader.ranking.implicit): off
    # until the user turns it on, since it records reading habits beyond the ratings they chose to give.
    implicit_signals = models.BooleanField(default=False)


class Signal(models.Model):
    """Something an opted-in user did with a story without rating it: a weak label for their model."""

    class Kind(models.TextChoices):
        OPENED = "opened"
        READ = "read"  # to the end
        SAVED = "saved"
        SKIPPED = "skipped"  # scrolled past unopened in a list they were looking at

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signals")
    story = models.ForeignKey(Story, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "story", "kind"], name="signal_unique")]
        indexes = [models.Index(fields=["user", "-id"], name="signal_newest")]


class TasteModel(models.Model):
    """A user's trained recommender model, serialized by recommender/; rebuilt from ratings if unreadable."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="taste_model")
    data = models.BinaryField()
    version = models.PositiveIntegerField(default=0)
    rating_count = models.PositiveIntegerField(default=0)
    trained_at = models.DateTimeField(default=timezone.now)


class Rule(models.Model):
    """An explicit always-show / always-hide pin that overrides the model."""

    class Kind(models.TextChoices):
        WORD = "word"
        AUTHOR = "author"
        TAG = "tag"
        FEED = "feed"

    class Action(models.TextChoices):
        SHOW = "show", "always show"
        HIDE = "hide", "always hide"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rules")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    value = models.CharField(max_length=500)
    action = models.CharField(max_length=4, choices=Action.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind", "value"], name="rule_unique")]


class OpmlImport(models.Model):
    """One uploaded OPML file, imported by a task in batches; the import page follows its counts."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="opml_imports")
    data = models.BinaryField()  # the file, emptied once it is imported
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    found = models.PositiveIntegerField(default=0)  # feed outlines in the file
    processed = models.PositiveIntegerField(default=0)
    subscribed = models.PositiveIntegerField(default=0)
    already = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list)  # the first few [what, why] pairs
    feed_ids = models.JSONField(default=list)  # the file's feeds the user now follows (the first 2,000)
    error = models.TextField(blank=True)  # why the whole file failed
    created_at = models.DateTimeField(auto_now_add=True)


class CrowdSnapshot(models.Model):
    """The community prior with its crowd model, fitted by a periodic task; web processes only load it."""

    data = models.BinaryField(help_text="the pickled recommender.CommunityPrior")
    stories = models.PositiveIntegerField(default=0)
    votes = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)


class RankingJob(models.Model):
    """A ranking task queued and not yet started, by key ("retrain:12"): the key is taken before the task
    is queued, so a burst of ratings queues one retrain, and the task frees it when it starts."""

    key = models.CharField(max_length=100, unique=True)
    queued_at = models.DateTimeField()


class ApiPassword(models.Model):
    """A user's password for sync apps (the Google Reader API), apart from the login password: an app stores it,
    so it can be revoked or replaced without touching the account. Kept hashed; no row means the API is off."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_password")
    password = models.CharField(max_length=128, help_text="hashed like login passwords")
    created_at = models.DateTimeField(auto_now=True)
