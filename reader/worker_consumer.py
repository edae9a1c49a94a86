"""Celery's consumer, made to outlive a broker connection that fails while being closed.

When Redis goes away, the consumer closes the lost connection and connects again. kombu closes it twice:
first with a short socket timeout, then for good. On a loaded machine the first close can time out after the
transport has let go of its client, and the second then dies on the missing client (AttributeError in
kombu's Redis transport, while it puts unacknowledged messages back). Celery lets that error out, and the
worker stopped for good: nothing ran until somebody restarted it (seen in the "restart Redis" fault drill,
about one run in five under load). The connection is lost either way; connecting again is what's left, and
the messages it held come back after the visibility timeout, as after any lost connection.
"""
from __future__ import annotations

import logging

from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        try:
            super().on_connection_error_after_connected(exc)
        except Exception:  # noqa: BLE001 - whatever closing a dead connection raises, reconnecting follows
            log.warning("closing the lost broker connection failed; connecting again", exc_info=True)
