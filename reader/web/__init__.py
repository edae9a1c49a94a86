"""Web: what a browser or API client sees: views, the JSON API, forms, the reading stream and search,
middleware, rate limits and the Jinja glue.

May import: reader.models, reader.queue, reader.ingestion, reader.ranking, extraction, recommender.
Never reader.tasks: work for the workers is queued by name through reader.queue.
"""
