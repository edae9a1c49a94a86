"""The one error the JSON API reports: a stable code, an HTTP status, and a message a person can act on."""
from __future__ import annotations

import logging

from django.http import JsonResponse


class ApiError(Exception):
    def __init__(self, code: str, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.code, self.status, self.message, self.headers = code, status, message, headers or {}

    def to_dict(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}

    def response(self) -> JsonResponse:
        response = JsonResponse(self.to_dict(), status=self.status)
        for name, value in self.headers.items():
            response[name] = value
        return response


class SiteFaultsAsWarnings(logging.Filter):
    """On django.request: a 502 or 504 that a fetched site caused (a 404 there, a refused connection) is logged as
    a warning, not as our error. Views mark such requests with request.site_fault = True."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING and getattr(getattr(record, "request", None), "site_fault", False):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
