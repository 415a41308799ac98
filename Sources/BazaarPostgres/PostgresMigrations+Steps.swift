import Logging
import PostgresNIO

/// The schema's steps, frozen once released: a change to the schema is a new step at the end,
/// never an edit of one that a database may already have applied (``PostgresMigrations/migrate(url:logger:)``
/// records each by name and runs it once).
extension PostgresMigrations {
    /// Every migration, oldest first.
    package static let all: [Migration] = [
        Migration(
            name: "v1-initial-schema",
            statements: [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL, bio TEXT,
                    password_hash TEXT NOT NULL, photo_digest TEXT, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE photos (
                    user_id TEXT PRIMARY KEY REFERENCES users(id), media_type TEXT NOT NULL, digest TEXT NOT NULL,
                    data BYTEA NOT NULL, updated_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id), created_at BIGINT NOT NULL,
                    revoked_at BIGINT)
                """,
                """
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),
                    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT)
                """,
                "CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id)",
                """
                CREATE TABLE products (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
                    seller_id TEXT NOT NULL REFERENCES users(id), title TEXT NOT NULL, description TEXT NOT NULL,
                    price_cents BIGINT NOT NULL, currency TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE conversations (
                    id TEXT PRIMARY KEY, user_low TEXT NOT NULL REFERENCES users(id),
                    user_high TEXT NOT NULL REFERENCES users(id), product_id TEXT REFERENCES products(id),
                    product_key TEXT NOT NULL, last_message_id TEXT, created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL, UNIQUE (user_low, user_high, product_key))
                """,
                "CREATE INDEX conversations_low ON conversations(user_low, updated_at)",
                "CREATE INDEX conversations_high ON conversations(user_high, updated_at)",
                """
                CREATE TABLE conversation_reads (
                    conversation_id TEXT NOT NULL REFERENCES conversations(id), user_id TEXT NOT NULL REFERENCES users(id),
                    last_read_seq BIGINT NOT NULL, PRIMARY KEY (conversation_id, user_id))
                """,
                """
                CREATE TABLE messages (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
                    conversation_id TEXT NOT NULL REFERENCES conversations(id), sender_id TEXT NOT NULL REFERENCES users(id),
                    body TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX messages_conversation ON messages(conversation_id, seq)",
                """
                CREATE TABLE idempotency_keys (
                    user_id TEXT NOT NULL REFERENCES users(id), idem_key TEXT NOT NULL,
                    message_id TEXT NOT NULL REFERENCES messages(id) DEFERRABLE INITIALLY DEFERRED,
                    created_at BIGINT NOT NULL, PRIMARY KEY (user_id, idem_key))
                """,
                """
                CREATE TABLE notifications (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
                    user_id TEXT NOT NULL REFERENCES users(id), type TEXT NOT NULL, is_read BOOLEAN NOT NULL,
                    conversation_id TEXT REFERENCES conversations(id), message_id TEXT REFERENCES messages(id),
                    created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX notifications_user ON notifications(user_id, seq)",
            ]),
        Migration(
            name: "v2-replicas",
            statements: [
                // Live events for every replica: the row is the event, the notification only its number.
                """
                CREATE TABLE live_events (
                    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, kind TEXT NOT NULL, user_ids TEXT[] NOT NULL,
                    frame TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX live_events_created ON live_events(created_at)",
                // The transaction lock makes numbers commit in order, so a listener reading `seq > last`
                // never skips a number that commits late. NOTIFY serialises commits anyway.
                """
                CREATE FUNCTION bazaar_publish(event_kind TEXT, recipients TEXT[], event_frame TEXT, at_millis BIGINT)
                RETURNS BIGINT LANGUAGE plpgsql AS $$
                DECLARE new_seq BIGINT;
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(lockKey + 1));
                    INSERT INTO live_events (kind, user_ids, frame, created_at)
                        VALUES (event_kind, recipients, event_frame, at_millis) RETURNING seq INTO new_seq;
                    PERFORM pg_notify('\(eventChannel)', new_seq::TEXT);
                    RETURN new_seq;
                END $$
                """,
                // Failed logins, counted across replicas; rows older than the window are pruned.
                "CREATE TABLE login_failures (throttle_key TEXT NOT NULL, failed_at BIGINT NOT NULL)",
                "CREATE INDEX login_failures_key ON login_failures(throttle_key, failed_at)",
            ]),
        // Full-text search: the vectors hold ``SearchTokenizer`` terms (the SQLite index's own),
        // written by the store with each product; rows from before are filled here.
        Migration(
            name: "v3-product-search",
            statements: [
                "ALTER TABLE products ADD COLUMN search_vector TSVECTOR, ADD COLUMN title_vector TSVECTOR",
                // fastupdate off: a listing goes into the index at once rather than into a pending
                // list that every search would read until the next vacuum (searches far outnumber
                // listings).
                "CREATE INDEX products_search ON products USING GIN (search_vector) WITH (fastupdate = off)",
                // Relevance's first run looks in titles alone; without this a word common in
                // descriptions but rare in titles would read every product that has it.
                "CREATE INDEX products_title_search ON products USING GIN (title_vector) WITH (fastupdate = off)",
                // The vocabulary of a catalogue is large: a longer most-common list makes the
                // planner's guess for a word outside it (a rare one) smaller, and so closer.
                "ALTER TABLE products ALTER COLUMN search_vector SET STATISTICS 2000, ALTER COLUMN title_vector SET STATISTICS 2000",
                "CREATE INDEX products_seller ON products (seller_id, seq)",
                "CREATE INDEX products_price ON products (price_cents, seq)",
            ],
            backfill: { connection, logger in try await PostgresSearchVectors.backfill(connection, logger: logger) }),
        // Product photos: the order on the product (every product read needs it), the images apart.
        Migration(
            name: "v4-product-photos",
            statements: [
                "ALTER TABLE products ADD COLUMN photo_ids TEXT NOT NULL DEFAULT ''",
                """
                CREATE TABLE product_photos (
                    id TEXT PRIMARY KEY, product_id TEXT NOT NULL REFERENCES products(id), media_type TEXT NOT NULL,
                    digest TEXT NOT NULL, data BYTEA NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX product_photos_product ON product_photos(product_id)",
            ]),
        // A write plan's live events in one statement and one NOTIFY: the rows in the order
        // given (numbered in that order under the same lock as bazaar_publish), then the last
        // number notified. Each event's recipients are one element, ids joined by commas (ids are
        // the server's UUIDs, which hold none).
        Migration(
            name: "v5-publish-all",
            statements: [
                """
                CREATE FUNCTION bazaar_publish_all(event_frames TEXT[], recipient_lists TEXT[], at_millis BIGINT)
                RETURNS BIGINT LANGUAGE plpgsql AS $$
                DECLARE last_seq BIGINT;
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(lockKey + 1));
                    WITH inserted AS (
                        INSERT INTO live_events (kind, user_ids, frame, created_at)
                        SELECT 'live', string_to_array(e.recipients, ','), e.frame, at_millis
                        FROM unnest(event_frames, recipient_lists) WITH ORDINALITY AS e(frame, recipients, position)
                        ORDER BY e.position
                        RETURNING seq)
                    SELECT MAX(seq) INTO last_seq FROM inserted;
                    IF last_seq IS NOT NULL THEN
                        PERFORM pg_notify('\(eventChannel)', last_seq::TEXT);
                    END IF;
                    RETURN last_seq;
                END $$
                """
            ]),
        // The sequence number of a conversation's last message, so that of two sends committing
        // at once the one whose message is newer (by seq) always ends as the last message: the
        // update is conditional on this column, which PostgreSQL re-checks on the row as the
        // other transaction left it.
        Migration(
            name: "v6-last-message-seq",
            statements: [
                "ALTER TABLE conversations ADD COLUMN last_message_seq BIGINT NOT NULL DEFAULT 0",
                """
                UPDATE conversations c SET last_message_seq = m.seq FROM messages m WHERE m.id = c.last_message_id
                """,
            ]),
        // Login attempts are counted before the password is checked; a success takes its own
        // count back by this id.
        Migration(
            name: "v7-login-attempt-id",
            statements: ["ALTER TABLE login_failures ADD COLUMN attempt_id TEXT"]),
        // What the retention prune looks rows up by (it runs every hour).
        Migration(
            name: "v8-retention",
            statements: [
                "CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)",
                "CREATE INDEX notifications_created ON notifications (created_at)",
                "CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at)",
                "CREATE INDEX refresh_tokens_used ON refresh_tokens (used_at)",
                "CREATE INDEX sessions_revoked ON sessions (revoked_at)",
            ]),
        // A listing's life: status and buyer, the version every change moves on, when it last
        // changed and how many saved it; the default list and its price order read what is
        // available by partial indexes of their own.
        Migration(
            name: "v9-listing-life",
            statements: [
                """
                ALTER TABLE products ADD COLUMN status TEXT NOT NULL DEFAULT 'available',
                    ADD COLUMN buyer_id TEXT REFERENCES users(id), ADD COLUMN version BIGINT NOT NULL DEFAULT 0,
                    ADD COLUMN updated_at BIGINT, ADD COLUMN favourite_count INTEGER NOT NULL DEFAULT 0
                """,
                "CREATE INDEX products_available ON products (seq) WHERE status = 'available'",
                "CREATE INDEX products_available_price ON products (price_cents, seq) WHERE status = 'available'",
            ]),
        // Offers, and the timeline lines that tell of them (a message's kind and offer).
        Migration(
            name: "v10-offers",
            statements: [
                "ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'text', ADD COLUMN offer_id TEXT",
                """
                CREATE TABLE offers (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE, product_id TEXT NOT NULL,
                    conversation_id TEXT NOT NULL REFERENCES conversations(id),
                    buyer_id TEXT NOT NULL REFERENCES users(id), amount_cents BIGINT NOT NULL, currency TEXT NOT NULL,
                    status TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX offers_open ON offers (product_id, seq) WHERE status = 'open'",
                "CREATE INDEX offers_conversation ON offers (conversation_id, seq)",
            ]),
        // Favourites (a product's count kept beside it) and what a notification is about.
        Migration(
            name: "v11-favourites",
            statements: [
                """
                CREATE TABLE favourites (
                    user_id TEXT NOT NULL REFERENCES users(id), product_id TEXT NOT NULL REFERENCES products(id),
                    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE, created_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, product_id))
                """,
                "CREATE INDEX favourites_user ON favourites (user_id, seq)",
                "CREATE INDEX favourites_product ON favourites (product_id)",
                "ALTER TABLE notifications ADD COLUMN product_id TEXT",
            ]),
        // Reviews after a sale, and each user's running rating (sum and count, moved with each review).
        Migration(
            name: "v12-reviews",
            statements: [
                """
                CREATE TABLE reviews (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE, product_id TEXT NOT NULL,
                    author_id TEXT NOT NULL REFERENCES users(id), subject_id TEXT NOT NULL REFERENCES users(id),
                    rating INTEGER NOT NULL, text TEXT NOT NULL, created_at BIGINT NOT NULL,
                    UNIQUE (product_id, author_id))
                """,
                "CREATE INDEX reviews_subject ON reviews (subject_id, seq)",
                """
                ALTER TABLE users ADD COLUMN rating_sum BIGINT NOT NULL DEFAULT 0,
                    ADD COLUMN rating_count INTEGER NOT NULL DEFAULT 0
                """,
            ]),
        // Roles the operator names (moderators), read at each sign-in.
        Migration(
            name: "v13-roles",
            statements: ["ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member'"]),
        // Trust and the account: blocks, reports and the moderators' record of what they did;
        // suspended and deleted accounts, hidden listings, removed messages; what a session
        // signed in with and when it was last used (and sessions found by user, to end them all).
        Migration(
            name: "v14-trust",
            statements: [
                "ALTER TABLE users ADD COLUMN suspended_at BIGINT, ADD COLUMN deleted_at BIGINT",
                "ALTER TABLE products ADD COLUMN hidden BOOLEAN NOT NULL DEFAULT FALSE",
                "ALTER TABLE messages ADD COLUMN removed BOOLEAN NOT NULL DEFAULT FALSE",
                "ALTER TABLE notifications ADD COLUMN report_id TEXT",
                "ALTER TABLE sessions ADD COLUMN last_used_at BIGINT, ADD COLUMN user_agent TEXT",
                "CREATE INDEX sessions_user ON sessions (user_id)",
                "CREATE INDEX reviews_author ON reviews (author_id, seq)",
                "CREATE INDEX offers_buyer ON offers (buyer_id) WHERE status = 'open'",
                """
                CREATE TABLE blocks (
                    blocker_id TEXT NOT NULL REFERENCES users(id), blocked_id TEXT NOT NULL REFERENCES users(id),
                    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE, created_at BIGINT NOT NULL,
                    PRIMARY KEY (blocker_id, blocked_id))
                """,
                "CREATE INDEX blocks_blocker ON blocks (blocker_id, seq)",
                "CREATE INDEX blocks_blocked ON blocks (blocked_id)",
                """
                CREATE TABLE reports (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
                    reporter_id TEXT NOT NULL REFERENCES users(id), subject_type TEXT NOT NULL,
                    subject_id TEXT NOT NULL, subject_user_id TEXT NOT NULL REFERENCES users(id),
                    reason TEXT NOT NULL, note TEXT, status TEXT NOT NULL, action TEXT,
                    created_at BIGINT NOT NULL, resolved_at BIGINT)
                """,
                """
                CREATE UNIQUE INDEX reports_open_once ON reports (reporter_id, subject_type, subject_id)
                WHERE status = 'open'
                """,
                "CREATE INDEX reports_status ON reports (status, seq)",
                "CREATE INDEX reports_reporter ON reports (reporter_id, seq)",
                "CREATE INDEX reports_subject ON reports (subject_type, subject_id) WHERE status = 'open'",
                """
                CREATE TABLE moderation_actions (
                    id TEXT PRIMARY KEY, seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
                    report_id TEXT NOT NULL REFERENCES reports(id), moderator_id TEXT NOT NULL REFERENCES users(id),
                    action TEXT NOT NULL, subject_type TEXT NOT NULL, subject_id TEXT NOT NULL, note TEXT,
                    created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX moderation_actions_report ON moderation_actions (report_id)",
            ]),
        // Photos in sizes: every size of every photo (a product's, a profile's, a chat's) in one
        // table, read one row per request; the uploads' own tables keep who and where. A
        // photo's sizes go with it, whichever way it is deleted. `product_photos.data` and
        // `photos.data` hold an upload from before sizes until `photos rebuild` empties them.
        Migration(
            name: "v15-photo-sizes",
            statements: [
                """
                CREATE TABLE photo_sizes (
                    photo_id TEXT NOT NULL, size TEXT NOT NULL, media_type TEXT NOT NULL, digest TEXT NOT NULL,
                    data BYTEA NOT NULL, PRIMARY KEY (photo_id, size))
                """,
                """
                CREATE TABLE attachments (
                    id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id),
                    uploader_id TEXT NOT NULL REFERENCES users(id), message_id TEXT, width INTEGER NOT NULL,
                    height INTEGER NOT NULL, byte_count BIGINT NOT NULL, created_at BIGINT NOT NULL)
                """,
                "CREATE INDEX attachments_uploader ON attachments (uploader_id, created_at)",
                "CREATE INDEX attachments_message ON attachments (message_id) WHERE message_id IS NOT NULL",
                "ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT ''",
                """
                CREATE FUNCTION bazaar_drop_sizes_by_id() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN DELETE FROM photo_sizes WHERE photo_id = OLD.id; RETURN OLD; END $$
                """,
                """
                CREATE FUNCTION bazaar_drop_sizes_by_user() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN DELETE FROM photo_sizes WHERE photo_id = OLD.user_id; RETURN OLD; END $$
                """,
                """
                CREATE TRIGGER product_photos_sizes AFTER DELETE ON product_photos
                FOR EACH ROW EXECUTE FUNCTION bazaar_drop_sizes_by_id()
                """,
                """
                CREATE TRIGGER photos_sizes AFTER DELETE ON photos
                FOR EACH ROW EXECUTE FUNCTION bazaar_drop_sizes_by_user()
                """,
                """
                CREATE TRIGGER attachments_sizes AFTER DELETE ON attachments
                FOR EACH ROW EXECUTE FUNCTION bazaar_drop_sizes_by_id()
                """,
            ]),
        // Which conversations' messages a plan changed, for the other replicas' memories of
        // history pages (``NewestMessagesMemo``): one `history` row before the plan's frames (a
        // listener drops the pages before it tells anyone of the change), its `frame` the id of
        // the replica that wrote it (which has updated its own memory already).
        Migration(
            name: "v16-history-events",
            statements: [
                """
                CREATE FUNCTION bazaar_publish_all(
                    changed_conversations TEXT[], origin TEXT, event_frames TEXT[], recipient_lists TEXT[], at_millis BIGINT)
                RETURNS BIGINT LANGUAGE plpgsql AS $$
                DECLARE history_seq BIGINT;
                DECLARE last_seq BIGINT;
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(lockKey + 1));
                    IF cardinality(changed_conversations) > 0 THEN
                        INSERT INTO live_events (kind, user_ids, frame, created_at)
                            VALUES ('history', changed_conversations, origin, at_millis) RETURNING seq INTO history_seq;
                    END IF;
                    WITH inserted AS (
                        INSERT INTO live_events (kind, user_ids, frame, created_at)
                        SELECT 'live', string_to_array(e.recipients, ','), e.frame, at_millis
                        FROM unnest(event_frames, recipient_lists) WITH ORDINALITY AS e(frame, recipients, position)
                        ORDER BY e.position
                        RETURNING seq)
                    SELECT COALESCE(MAX(seq), history_seq) INTO last_seq FROM inserted;
                    IF last_seq IS NOT NULL THEN
                        PERFORM pg_notify('\(eventChannel)', last_seq::TEXT);
                    END IF;
                    RETURN last_seq;
                END $$
                """
            ]),
    ]
}
