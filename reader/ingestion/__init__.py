"""Ingestion: from a feed's URL to stored stories and their extracted pages.

Owns the fetch gate (politeness, fetching), feed parsing (parsing, feed_fields, jsonfeed, charsets, digits),
the fetch schedule and the crawl's due feeds and feed lock (schedule, crawl), storing stories (feeds), page
extraction (articles, batches), the healing sweep, OPML (opml, opml_import) and subscribing (subscribe, with
discovery).

May import: reader.models, reader.queue, reader.ranking, extraction. Never reader.web or reader.tasks.
"""
