"""An offline demo news site that the reader can subscribe to without network access."""
