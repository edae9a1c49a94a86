"""The "Refresh now" button: queues the user's feeds once the request commits and answers at once."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from .. import queue
from . import ratelimit
from .refresh import feeds_to_refresh
from .views import safe_next


@login_required
@require_POST
def refresh(request):
    wait = ratelimit.hit("refresh", f"user:{request.user.pk}", settings.REFRESH_RATE_LIMIT,
                         settings.REFRESH_RATE_WINDOW)
    if wait:
        messages.warning(request, f"You refreshed a moment ago; try again in {wait} s.")
        return redirect(safe_next(request))
    ids = feeds_to_refresh(request.user)
    for feed_id in ids:
        queue.send(queue.FETCH_FEED, feed_id)
    if ids:
        messages.success(request, f"Fetching {len(ids)} feed{'' if len(ids) == 1 else 's'} now; new stories "
                                  "appear as they arrive.")
    else:
        messages.info(request, "Your feeds were fetched moments ago or are being fetched now.")
    return redirect(safe_next(request))
