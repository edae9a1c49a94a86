"""Reading pages: the feed (all of it, one feed or one folder; by score or newest first) and the reading view,
with the POST forms that change what is read. Reading a page never changes anything: opening a story marks it
read through a POST the page script sends (a link from another site cannot)."""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from .. import unread_cache
from ..models import Entry, Rating
from ..ranking import implicit
from . import reading, stream
from .api import MAX_ID
from .jinja import web_url
from .views import article_html, safe_next

FILTER_LABELS = {"recommended": "Recommended", "all": "All", "unread": "Unread", "saved": "Saved"}
SORT_LABELS = {"score": "By score", "newest": "Newest first"}
UNDO_KEY = "undo_mark_all_read"  # the session's list of entry ids the last "mark all as read" marked


def scope_from(data) -> stream.Scope:
    try:
        return stream.scope_from(data)
    except ValueError:
        raise Http404("No such feed or folder") from None


def query(scope: stream.Scope, **changes) -> str:
    """The query string of the view, with some of its parts changed: links keep the reader where they were."""
    parts = {"filter": scope.filter, "sort": scope.sort, "feed": scope.feed_id, "folder": scope.folder,
             "q": " ".join(scope.search) or None, **changes}
    if parts["sort"] == stream.DEFAULT_SORT:
        del parts["sort"]
    return "?" + urlencode({k: v for k, v in parts.items() if v is not None})


def heading(request, scope: stream.Scope) -> str:
    if scope.search:
        return f"Search: {' '.join(scope.search)}"
    if scope.feed_id is not None:
        names = {feed_id: name for _, feed_id, name in unread_cache.feed_list(request.user)}
        if scope.feed_id not in names:
            raise Http404("You do not follow that feed")
        return names[scope.feed_id]
    if scope.folder is not None:
        return scope.folder or "Feeds in no folder"
    return "Your feed"


@login_required
def home(request):
    scope = scope_from(request.GET)
    try:
        page = stream.page(request.user, cursor=request.GET.get("cursor"), scope=scope)
    except stream.BadCursor:
        raise Http404("That page of your feed does not exist") from None
    context = {"page": page, "scope": scope, "filter": scope.filter, "query": lambda **c: query(scope, **c)}
    if request.GET.get("partial"):  # the next page, for the infinite scroll
        return render(request, "reader/entries.html", context)
    return render(request, "reader/home.html", {
        **context, "filters": FILTER_LABELS, "sorts": SORT_LABELS, "heading": heading(request, scope),
        "tree": reading.unread_tree(request.user), "upto": reading.mark_all_bound(request.user, page.entries),
        "implicit_signals": implicit.shown_on_pages(request.user.id),
    })


@login_required
def story(request, story_id):
    entry = get_object_or_404(Entry.objects.select_related("story__feed"), user=request.user, story_id=story_id)
    scope = scope_from(request.GET)
    previous, following = stream.neighbours(request.user, entry, scope)
    which, html = article_html(entry.story, request.GET.get("source", ""))
    rating = Rating.objects.filter(user=request.user, story_id=story_id).values_list("value", flat=True).first()
    return render(request, "reader/story.html", {
        "entry": entry, "story": entry.story, "rating": rating, "filter": scope.filter, "which": which,
        "article_html": html, "previous": previous, "next": following, "query": lambda **c: query(scope, **c),
        "original": web_url(entry.story.url), "lead_image": web_url(entry.story.lead_image),
        "implicit_signals": implicit.shown_on_pages(request.user.id),
    })


@login_required
@require_POST
def mark_read(request, story_id):
    """The no-JavaScript path of the read / unread button."""
    get_object_or_404(Entry, user=request.user, story_id=story_id)
    reading.set_read(request.user, [story_id], request.POST.get("read") != "false")
    return redirect(safe_next(request))


@login_required
@require_POST
def mark_all_read(request):
    """Every unread story of the view the form was on, as far as that page knew of them."""
    try:
        upto = int(request.POST.get("upto", ""))
    except ValueError:
        upto = 0
    # Clamped both ways: the database overflows past a row id's range at either end.
    count, ids = reading.mark_all_read(request.user, scope_from(request.POST), max(0, min(upto, MAX_ID)))
    request.session[UNDO_KEY] = ids
    # The tag draws an Undo button beside the message (base.html): one key, A, marks a whole view read.
    messages.success(request, f"Marked {count} stor{'y' if count == 1 else 'ies'} read",
                     extra_tags="undo-read" if ids else "")
    return redirect(safe_next(request))


@login_required
@require_POST
def undo_mark_all_read(request):
    """The stories the last "mark all as read" marked, unread again (once)."""
    ids = [i for i in request.session.pop(UNDO_KEY, []) if isinstance(i, int)]
    count = reading.mark_entries_unread(request.user, ids)
    messages.success(request, f"Marked {count} stor{'y' if count == 1 else 'ies'} unread again")
    return redirect(safe_next(request))
