"""Content-Security-Policy on every response: scripts and styles only from our own static files."""
from __future__ import annotations

from django.conf import settings

# Lead images and article pictures come from the stories' own sites, so images may load from anywhere;
# nothing else may. No inline scripts or event handlers anywhere in the templates.
POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: http: data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
# Django's admin sets a few style attributes; its pages keep script-src 'self' but allow inline styles.
ADMIN_POLICY = POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
# In development, Django's error pages (404, 500 with the traceback) carry their own inline style and script.
DEBUG_ERROR_POLICY = ADMIN_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy(request, response)
        response.setdefault("Referrer-Policy", "same-origin")
        response.setdefault("X-Content-Type-Options", "nosniff")
        return response

    @staticmethod
    def policy(request, response) -> str:
        if settings.DEBUG and response.status_code >= 400:
            return DEBUG_ERROR_POLICY
        return ADMIN_POLICY if request.path.startswith("/admin/") else POLICY
