"""The settings page of the sync apps' API password (the Google Reader API): set, replace, or turn off. A new
password is shown once, on the answer to the form that made it; only its hash is kept."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from ..models import ApiPassword
from .forms import ApiPasswordForm
from .greader import credentials


@login_required
def api_password(request):
    form = ApiPasswordForm(request.POST or None)
    shown = ""
    if request.method == "POST" and request.POST.get("action") == "off":
        credentials.turn_off(request.user)
        messages.success(request, "API access is off: apps signed in with the old password are signed out")
        return redirect("api_password")
    if request.method == "POST" and request.POST.get("action") in ("generate", "choose") and form.is_valid():
        shown = form.cleaned_data["password"] or credentials.generate()
        credentials.set_password(request.user, shown)
        form = ApiPasswordForm()
    stored = ApiPassword.objects.filter(user=request.user).first()
    return render(request, "reader/api_password.html", {
        "form": form, "stored": stored, "shown": shown,
        "bases": [request.build_absolute_uri("/"), request.build_absolute_uri("/api/greader/")],
    })
