"""Full-text search over stories (issue 19): an FTS5 index on SQLite, a tsvector column and GIN index on PostgreSQL.

Both index the title, the extracted article and the feed's own content. On SQLite the FTS5 table reads its text
from reader_story (external content) and triggers keep it in step; on PostgreSQL the column is generated.
"""
from django.db import migrations

SQLITE = [
    """CREATE VIRTUAL TABLE reader_story_fts USING fts5(
           title, extracted_text, summary_html, content='reader_story', content_rowid='id')""",
    """CREATE TRIGGER reader_story_fts_insert AFTER INSERT ON reader_story BEGIN
           INSERT INTO reader_story_fts(rowid, title, extracted_text, summary_html)
           VALUES (new.id, new.title, new.extracted_text, new.summary_html);
       END""",
    """CREATE TRIGGER reader_story_fts_delete AFTER DELETE ON reader_story BEGIN
           INSERT INTO reader_story_fts(reader_story_fts, rowid, title, extracted_text, summary_html)
           VALUES ('delete', old.id, old.title, old.extracted_text, old.summary_html);
       END""",
    """CREATE TRIGGER reader_story_fts_update AFTER UPDATE OF title, extracted_text, summary_html ON reader_story
       BEGIN
           INSERT INTO reader_story_fts(reader_story_fts, rowid, title, extracted_text, summary_html)
           VALUES ('delete', old.id, old.title, old.extracted_text, old.summary_html);
           INSERT INTO reader_story_fts(rowid, title, extracted_text, summary_html)
           VALUES (new.id, new.title, new.extracted_text, new.summary_html);
       END""",
    "INSERT INTO reader_story_fts(reader_story_fts) VALUES ('rebuild')",
]
SQLITE_UNDO = ["DROP TRIGGER reader_story_fts_update", "DROP TRIGGER reader_story_fts_delete",
               "DROP TRIGGER reader_story_fts_insert", "DROP TABLE reader_story_fts"]
POSTGRESQL = [
    # 'simple': no stemming, so a search finds the words as written in any language. A tsvector holds at most
    # 1 MB: the first 200,000 characters are indexed.
    """ALTER TABLE reader_story ADD COLUMN search tsvector GENERATED ALWAYS AS (
           to_tsvector('simple', left(title || ' ' || extracted_text || ' ' || summary_html, 200000))) STORED""",
    "CREATE INDEX reader_story_search ON reader_story USING gin (search)",
]
POSTGRESQL_UNDO = ["DROP INDEX reader_story_search", "ALTER TABLE reader_story DROP COLUMN search"]


def run(statements: dict):
    def apply(apps, schema_editor):
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):
    dependencies = [("reader", "0009_healing_stamps")]

    operations = [migrations.RunPython(run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
                                       run({"sqlite": SQLITE_UNDO, "postgresql": POSTGRESQL_UNDO}))]
