"""The API's addresses, mounted at the site root and again under /api/greader/: an app may be given either
`https://host/` (as Miniflux asks) or `https://host/api/greader/` (like FreshRSS's `/api/greader.php`). Apps
join the base and a path with or without a doubled slash, so extra slashes are accepted."""
from __future__ import annotations

from django.http import HttpResponse
from django.urls import re_path

from . import views_edit, views_items, views_lists, views_login, views_subscriptions

PREFIX = r"^(?:/+)?(?:api/greader/+)?"
API = PREFIX + r"reader/api/0/"


def unknown(request, *args):
    return HttpResponse("Not a Google Reader API call this server knows (see docs/api.md)\n", status=404,
                        content_type="text/plain; charset=utf-8")


urlpatterns = [
    re_path(PREFIX + r"accounts/ClientLogin/?$", views_login.client_login, name="greader_login"),
    re_path(API + r"token/?$", views_login.token, name="greader_token"),
    re_path(API + r"user-info/?$", views_login.user_info, name="greader_user_info"),
    re_path(API + r"subscription/list/?$", views_lists.subscription_list, name="greader_subscriptions"),
    re_path(API + r"tag/list/?$", views_lists.tag_list, name="greader_tags"),
    re_path(API + r"unread-count/?$", views_lists.unread_count, name="greader_unread_count"),
    re_path(API + r"stream/items/ids/?$", views_items.item_ids, name="greader_item_ids"),
    re_path(API + r"stream/items/contents/?$", views_items.item_contents, name="greader_item_contents"),
    re_path(API + r"stream/contents/?$", views_items.stream_contents, name="greader_reading_list"),
    re_path(API + r"stream/contents/(?P<stream_id>.+)$", views_items.stream_contents, name="greader_stream"),
    re_path(API + r"edit-tag/?$", views_edit.edit_tag, name="greader_edit_tag"),
    re_path(API + r"mark-all-as-read/?$", views_edit.mark_all_as_read, name="greader_mark_all_read"),
    re_path(API + r"subscription/edit/?$", views_subscriptions.subscription_edit, name="greader_subscription_edit"),
    re_path(API + r"subscription/quickadd/?$", views_subscriptions.quickadd, name="greader_quickadd"),
    re_path(API + r"rename-tag/?$", views_subscriptions.rename_tag, name="greader_rename_tag"),
    re_path(API + r"disable-tag/?$", views_subscriptions.disable_tag, name="greader_disable_tag"),
    re_path(API + r".*$", unknown, name="greader_unknown"),
]
