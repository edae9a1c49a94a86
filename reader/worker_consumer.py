"""Celery's consumer, made to outlive a broker connection that fails while being closed.

When Redis goes away, the consumer closes the lost connection and connects again. kombu closes it twice:
first with a short socket timeout (`collect`), then for good. `collect` lets go of the transport's client even
when its close timed out, as it does on a loaded machine, and from then on everything still done on the old
connection's channels dies on the missing client (AttributeError in kombu's Redis transport), not with a
connection error that Celery would handle:
- the second close, while it puts unacknowledged messages back;
- the acknowledgement of a task that ran through the loss and finished after it.
Celery lets either error out, and the worker stopped for good: nothing ran until somebody restarted it (seen
in the "restart Redis" fault drill, in 6 of 16 runs at load average 4-8). So a failed close is logged and
the reconnect goes on, and the old transport keeps its client, so that a late acknowledgement reaches Redis
again (or fails as a connection error, and its message comes back after the visibility timeout).
"""
from __future__ import annotations

import logging

from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        connection = self.connection
        transport = connection.transport if connection is not None else None
        try:
            super().on_connection_error_after_connected(exc)
        except Exception:  # noqa: BLE001 - whatever closing a dead connection raises, reconnecting follows
            log.warning("closing the lost broker connection failed; connecting again", exc_info=True)
        if transport is not None and transport.client is None:
            transport.client = connection
