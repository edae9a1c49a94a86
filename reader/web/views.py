"""Pages besides reading (views_reading.py): rating and saving without JavaScript, subscriptions and OPML, the
progress page, taste and rules, the extraction demo, sign-up.

The work is the services' (reader/ingestion/subscribe.py, opml.py, reader/ranking/scores.py): a view reads the
form, calls one, and shows what came back.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from extraction.sanitize import clean_feed_html

from .. import queue, unread_cache
from ..ingestion import opml, opml_import as opml_imports, subscribe as subscribing
from ..models import Entry, OpmlImport, Rating, Rule, Subscription
from ..ranking import implicit, scores
from ..ranking.taste_chart import agreement_chart
from . import api, reading
from .forms import FolderForm, OpmlForm, RuleForm, SignupForm, SubscribeForm

def article_html(story, source: str) -> tuple[str, str]:
    """(which, html): what the reader asked for, else the better of the extracted page and the feed's text."""
    wants_article = story.best_is_extracted if source not in ("feed", "article") else source == "article"
    if wants_article and story.extracted_html:
        which, html = "article", story.extracted_html
    else:
        which, html = "feed", story.summary_html
    # Stored HTML was sanitized on the way in; cleaning again on the way out costs little and guards old rows.
    return which, clean_feed_html(html)


@login_required
@require_POST
def rate(request, story_id):
    """The no-JavaScript path of the good/bad buttons (the page script calls the JSON API instead)."""
    get_object_or_404(Entry, user=request.user, story_id=story_id)
    value = {"good": Rating.GOOD, "bad": Rating.BAD}.get(request.POST.get("rating"))
    scores.rate(request.user, story_id, value)
    return redirect(safe_next(request))


@login_required
@require_POST
def save(request, story_id):
    get_object_or_404(Entry, user=request.user, story_id=story_id)
    reading.set_saved(request.user, [story_id], request.POST.get("saved") == "true")
    return redirect(safe_next(request))


def safe_next(request) -> str:
    """Back to the page the form was on, never to another site. Only a path is taken: redirect() reads any
    other text without a "/" or "." ("-1", "%FF") as the name of a view, and failing to find one was a 500."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                                  require_https=request.is_secure()):
        return target
    return reverse("home")


def progress_url(feed_ids) -> str:
    """The page that follows these feeds while they are fetched."""
    return f"{reverse('progress')}?feeds={','.join(map(str, feed_ids))}"


def add_subscription(request, form):
    """Subscribe to the address, or to the one feed found there; several feeds found -> let the user choose (the
    choice comes back as the chosen feed's address)."""
    url, folder = form.cleaned_data["url"], form.cleaned_data["folder"]
    try:
        feed, created, candidates = subscribing.subscribe_typed(request.user, url, folder=folder,
                                                                scheme_guessed=form.scheme_guessed)
    except (subscribing.DiscoveryError, subscribing.TooManyFeeds) as exc:
        form.add_error("url", str(exc))
        return None
    if feed is None:
        followed = set(request.user.subscriptions.filter(feed__url__in=[c.url for c in candidates])
                       .values_list("feed__url", flat=True))
        return render(request, "reader/choose_feed.html", {
            "candidates": candidates, "followed": followed, "folder": folder,
            "first": next((c.url for c in candidates if c.url not in followed), None)})
    if not created:  # nothing new to fetch: the feed is already on its schedule
        messages.info(request, f"You already follow {feed}")
        return redirect("subscriptions")
    messages.success(request, f"Subscribed to {feed}")
    return redirect(progress_url([feed.id]))


@login_required
def subscriptions(request):
    form = SubscribeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        response = add_subscription(request, form)
        if response is not None:
            return response
    subs = request.user.subscriptions.select_related("feed").order_by("folder", "feed__title", "feed__url")
    return render(request, "reader/subscriptions.html", {"form": form, "subscriptions": subs, "opml_form": OpmlForm(),
                                                          "now": timezone.now(), "demo_site": settings.DEMO_SITE_URL})


@login_required
@require_POST
def unsubscribe(request, subscription_id):
    subscription = get_object_or_404(Subscription.objects.select_related("feed"), id=subscription_id,
                                     user=request.user)
    subscribing.unsubscribe(subscription)
    messages.success(request, f"Unsubscribed from {subscription.feed}")
    return redirect("subscriptions")


@login_required
@require_POST
def set_folder(request, subscription_id):
    subscription = get_object_or_404(Subscription, id=subscription_id, user=request.user)
    form = FolderForm(request.POST)
    if form.is_valid():
        subscription.folder = form.cleaned_data["folder"].strip()
        subscription.save(update_fields=["folder"])
    return redirect("subscriptions")


@login_required
@require_POST
def opml_import(request):
    """Store the file and import it in a task (a 10,000-feed file is minutes of work); its page shows how far."""
    form = OpmlForm(request.POST, request.FILES)
    if not form.is_valid():
        for problem in form.errors.get("file", []):
            messages.error(request, problem)
        return redirect("subscriptions")
    job = opml_imports.create(request.user, form.cleaned_data["file"].read())
    queue.send(queue.IMPORT_OPML, job.id)
    return redirect("opml_import_status", import_id=job.id)


@login_required
def opml_import_status(request, import_id):
    job = get_object_or_404(OpmlImport, id=import_id, user=request.user)
    finished = job.status in (OpmlImport.Status.DONE, OpmlImport.Status.FAILED)
    unread_cache.forget([request.user.id])  # the worker's new subscriptions, as in api.progress
    return render(request, "reader/opml_import.html", {
        "job": job, "finished": finished, "progress": progress_url(job.feed_ids) if job.feed_ids else "",
    })


@login_required
def opml_export(request):
    response = HttpResponse(opml.export_opml(request.user), content_type="text/x-opml; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="subscriptions.opml"'
    return response


@login_required
def progress(request):
    """A page that follows newly added feeds while they are fetched (it polls /api/progress)."""
    try:
        ids = api.id_list(request.GET.get("feeds", ""))[:2000]
    except ValueError:
        ids = []
    feeds = request.user.subscriptions.filter(feed_id__in=ids).select_related("feed")
    return render(request, "reader/progress.html", {"subscriptions": feeds, "ids": ",".join(map(str, ids))})


@login_required
def taste(request):
    model = scores.stored_model(request.user.id)  # read once for both; never fitted here
    summary = scores.taste_summary(request.user.id, model=model)
    teach_ids = scores.teach_me(request.user.id, 5, model=model)
    teach = {e.story_id: e for e in Entry.objects.filter(user=request.user, story_id__in=teach_ids)
             .select_related("story__feed")}
    return render(request, "reader/taste.html", {
        "summary": summary, "chart": agreement_chart(scores.agreement(request.user.id)),
        "rules": request.user.rules.order_by("action", "kind", "value"), "rule_form": RuleForm(),
        "teach": [teach[i] for i in teach_ids if i in teach], "pinnable": {k.value for k in Rule.Kind},
        "implicit_signals": implicit.enabled(request.user.id),
    })


@login_required
@require_POST
def set_signals(request):
    """Learn from what the user opens, reads, saves and skips, or stop and forget it."""
    on = request.POST.get("implicit_signals") == "on"
    implicit.set_enabled(request.user.id, on)
    scores.queue_retrain(request.user.id)
    messages.success(request, "The feed now learns from what you open, read, save and skip" if on else
                     "The feed learns from your ratings only; what it had recorded of your reading is deleted")
    return redirect("taste")


@login_required
@require_POST
def add_rule(request):
    form = RuleForm(request.POST)
    if form.is_valid():
        Rule.objects.update_or_create(user=request.user, kind=form.cleaned_data["kind"],
                                      value=form.cleaned_data["value"],
                                      defaults={"action": form.cleaned_data["action"]})
        scores.queue_rescore(request.user.id)  # rules apply when the feed is rescored, without a refit
        messages.success(request, f"Rule saved: always {form.cleaned_data['action']} "
                                  f"{form.cleaned_data['kind']} “{form.cleaned_data['value']}”")
    else:
        for problems in form.errors.values():
            for problem in problems:
                messages.error(request, problem)
    return redirect("taste")


@login_required
@require_POST
def delete_rule(request, rule_id):
    get_object_or_404(Rule, id=rule_id, user=request.user).delete()
    scores.queue_rescore(request.user.id)
    return redirect("taste")


def extract_page(request):
    """The public extraction demo: the same widget other sites embed."""
    return render(request, "reader/extract.html")


def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")  # just created: no throttle check
        return redirect("subscriptions")
    return render(request, "registration/signup.html", {"form": form})
