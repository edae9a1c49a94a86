"""Pages: the personal feed, the reading view, rating, subscriptions, sign-up."""
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from . import ranking
from .models import Entry, Rating
from .subscribe import subscribe
from .tasks import fetch_feed


@login_required
def home(request):
    entries = Entry.objects.filter(user=request.user).select_related("story__feed").order_by("-score", "-id")
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    ratings = dict(Rating.objects.filter(user=request.user, story__in=[e.story_id for e in page]).values_list("story_id", "value"))
    for entry in page:
        entry.rating = ratings.get(entry.story_id)
    return render(request, "reader/home.html", {"page": page})


@login_required
def story(request, story_id):
    entry = get_object_or_404(Entry.objects.select_related("story__feed"), user=request.user, story_id=story_id)
    if not entry.read:
        entry.read = True
        entry.save(update_fields=["read"])
    rating = Rating.objects.filter(user=request.user, story_id=story_id).values_list("value", flat=True).first()
    return render(request, "reader/story.html", {"entry": entry, "story": entry.story, "rating": rating})


@login_required
@require_POST
def rate(request, story_id):
    get_object_or_404(Entry, user=request.user, story_id=story_id)
    value = {"good": Rating.GOOD, "bad": Rating.BAD}.get(request.POST.get("rating"))
    ranking.rate(request.user, story_id, value)
    if request.accepts("application/json") and not request.accepts("text/html"):
        return JsonResponse({"story": story_id, "rating": request.POST.get("rating")})
    return redirect(request.POST.get("next") or "home")


@login_required
def subscriptions(request):
    if request.method == "POST":
        url = request.POST.get("url", "").strip()
        if not url.startswith(("http://", "https://")):
            messages.error(request, "Enter a feed URL starting with http:// or https://")
        else:
            feed, created = subscribe(request.user, url)
            fetch_feed.delay(feed.id)
            messages.success(request, f"Subscribed to {url}" if created else f"Already subscribed to {url}")
        return redirect("subscriptions")
    subs = request.user.subscriptions.select_related("feed").order_by("feed__title")
    return render(request, "reader/subscriptions.html", {"subscriptions": subs})


def signup(request):
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})
