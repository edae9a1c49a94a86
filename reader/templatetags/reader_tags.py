"""Django-template access to the Jinja2 macros the feed list uses, so each piece of markup exists once."""
from __future__ import annotations

from django import template
from django.template import engines

register = template.Library()


@register.simple_tag(takes_context=True)
def story_actions(context, story_id, rating, saved, title):
    """Good / bad / save buttons for one story, as on the feed page."""
    request = context["request"]
    macros = engines["jinja2"].env.get_template("reader/actions.html").module
    hidden = macros.hidden_fields(context["csrf_input"], request.get_full_path())
    return macros.actions(story_id, rating, saved, title, hidden)
