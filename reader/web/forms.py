"""Forms for the pages: subscribing, folders, OPML upload, rules, sign-up."""
from __future__ import annotations

import recommender
from django import forms
from django.contrib.auth.forms import UserCreationForm

from ..models import Rule


class SubscribeForm(forms.Form):
    url = forms.URLField(label="Feed or site address", max_length=2000, assume_scheme="https",
                         error_messages={"invalid": "Enter a web address, such as example.org or "
                                                    "https://example.org/feed.xml"},
                         widget=forms.URLInput(attrs={"placeholder": "https://example.org/", "autocomplete": "url"}))
    folder = forms.CharField(label="Folder", max_length=200, required=False)

    def clean_url(self):
        url = self.cleaned_data["url"].strip()
        typed = str(self.data.get("url", "")).strip().lower()
        self.scheme_guessed = not typed.startswith(("http://", "https://"))  # "example.org" became https://
        if not url.startswith(("http://", "https://")):
            raise forms.ValidationError("Use an http:// or https:// address")
        return url


class FolderForm(forms.Form):
    folder = forms.CharField(label="Folder", max_length=200, required=False)


class OpmlForm(forms.Form):
    MAX_BYTES = 5 * 1024 * 1024
    file = forms.FileField(label="OPML file")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(f"The file is over {self.MAX_BYTES // (1024 * 1024)} MB")
        return upload


class RuleForm(forms.ModelForm):
    class Meta:
        model = Rule
        fields = ["action", "kind", "value"]
        labels = {"action": "Always", "kind": "stories with this", "value": "value"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # No empty "---------" choice; and the bare words, which continue the labels around them into one
        # sentence ("Always [show] stories with this [word]"), where the models' labels read "Always always show".
        self.fields["action"].choices = [(action, action) for action in Rule.Action.values]
        self.fields["kind"].choices = [(kind, kind) for kind in Rule.Kind.values]

    def clean_value(self):
        value = " ".join(self.cleaned_data["value"].split())
        if not value:
            raise forms.ValidationError("Give a word, author, tag or feed")
        kind = self.cleaned_data.get("kind")
        if kind != Rule.Kind.WORD:
            return value.lower() if kind != Rule.Kind.FEED else value
        if " " in value:
            raise forms.ValidationError("A word rule takes one word")
        # The recommender matches one word token as its tokenizer reads it: anything else would be refused
        # when the feed is scored, so it is refused here, where the user can fix it.
        try:
            return recommender.Rule(kind, value, Rule.Action.SHOW).value
        except ValueError:
            raise forms.ValidationError(
                f"“{value}” can't be a word rule: give one word of at least two letters, "
                f"not a very common word such as “the” (those are not matched)") from None


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class ApiPasswordForm(forms.Form):
    """A sync app's password the user chooses (or leaves empty to have one made)."""
    password = forms.CharField(label="Your own API password", required=False, strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_password(self):
        from .greader.credentials import MIN_LENGTH

        password = self.cleaned_data["password"]
        if password and len(password) < MIN_LENGTH:
            raise forms.ValidationError(f"Use at least {MIN_LENGTH} characters (or leave it empty for one made for you)")
        if password != password.strip() or len(password) > 200:
            raise forms.ValidationError("No spaces at the ends, and at most 200 characters")
        return password
