"""System checks: settings that would only fail later, in a worker, are refused at start-up."""
from django.conf import settings
from django.core.checks import Error, register

import extraction
from extraction.fetch import parse_networks


@register()
def extraction_method_exists(app_configs, **kwargs):
    if settings.EXTRACTION_METHOD in extraction.METHODS:
        return []
    return [Error(f"EXTRACTION_METHOD={settings.EXTRACTION_METHOD!r} is not an extraction method",
                  hint=f"choose one of: {', '.join(extraction.METHODS)}", id="reader.E001")]


@register()
def fetch_networks_parse(app_configs, **kwargs):
    try:
        parse_networks(settings.FETCH_ALLOWED_NETWORKS)
    except ValueError as exc:
        return [Error(f"FETCH_ALLOWED_NETWORKS is not a comma-separated list of networks: {exc}", id="reader.E002")]
    return []
