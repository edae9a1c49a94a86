from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path, register_converter
from django.urls.converters import IntConverter
from django.views.generic import RedirectView

from .web import api, api_reading, views, views_api_password, views_reading, views_refresh
from .web.greader import urls as greader_urls



class IdConverter(IntConverter):
    """A row id: at most 18 digits, so a longer number is a 404 rather than an overflow in the database."""

    regex = "[0-9]{1,18}"


register_converter(IdConverter, "id")


class Favicon(RedirectView):
    """/favicon.ico, which browsers ask for on pages that name no icon (the admin's): our icon, not a 404."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs):
        return static("reader/favicon.svg")  # at request time: the static manifest may not exist at import

urlpatterns = [
    path("", views_reading.home, name="home"),
    path("read-all", views_reading.mark_all_read, name="mark_all_read"),
    path("read-all/undo", views_reading.undo_mark_all_read, name="undo_mark_all_read"),
    path("refresh", views_refresh.refresh, name="refresh"),
    path("stories/<id:story_id>/", views_reading.story, name="story"),
    path("stories/<id:story_id>/read", views_reading.mark_read, name="mark_read"),
    path("stories/<id:story_id>/rate", views.rate, name="rate"),
    path("stories/<id:story_id>/save", views.save, name="save"),
    path("subscriptions/", views.subscriptions, name="subscriptions"),
    path("subscriptions/<id:subscription_id>/unsubscribe", views.unsubscribe, name="unsubscribe"),
    path("subscriptions/<id:subscription_id>/folder", views.set_folder, name="set_folder"),
    path("subscriptions/import", views.opml_import, name="opml_import"),
    path("subscriptions/import/<id:import_id>/", views.opml_import_status, name="opml_import_status"),
    path("subscriptions/export.opml", views.opml_export, name="opml_export"),
    path("subscriptions/progress", views.progress, name="progress"),
    path("taste/", views.taste, name="taste"),
    path("taste/rules", views.add_rule, name="add_rule"),
    path("taste/signals", views.set_signals, name="set_signals"),
    path("taste/rules/<id:rule_id>/delete", views.delete_rule, name="delete_rule"),
    path("extract/", views.extract_page, name="extract"),
    path("api/extract", api.extract, name="api_extract"),
    path("api/stories", api.stories, name="api_stories"),
    path("api/stories/read", api_reading.read_many, name="api_read_many"),
    path("api/stories/signals", api_reading.signals, name="api_signals"),
    path("api/stories/<id:story_id>/rating", api.rating, name="api_rating"),
    path("api/stories/<id:story_id>/read", api.read, name="api_read"),
    path("api/stories/<id:story_id>/save", api.save, name="api_save"),
    path("api/progress", api.progress, name="api_progress"),
    path("settings/api", views_api_password.api_password, name="api_password"),
    # The Google Reader API for sync apps, before /accounts/ (its ClientLogin lives there too).
    *greader_urls.urlpatterns,
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(
        template_name="registration/password_change.html"), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(
        template_name="registration/password_change_done.html"), name="password_change_done"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("favicon.ico", Favicon.as_view(), name="favicon"),
]
