import BazaarSearch
import BazaarStorage
import GRDB

/// The versioned schema of ``SQLiteStore``; each migration runs once, in order, at start.
///
/// Columns use types PostgreSQL has too (TEXT, BIGINT, INTEGER; BLOB would be BYTEA), times are
/// BIGINT milliseconds since 1970, and booleans are INTEGER 0/1.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-initial-schema") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY NOT NULL,
                        username TEXT NOT NULL UNIQUE,
                        display_name TEXT NOT NULL,
                        bio TEXT,
                        password_hash TEXT NOT NULL,
                        photo_digest TEXT,
                        created_at BIGINT NOT NULL
                    );
                    -- Photos live apart from the users rows that every request reads.
                    CREATE TABLE photos (
                        user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
                        media_type TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        data BLOB NOT NULL,
                        updated_at BIGINT NOT NULL
                    );
                    CREATE TABLE sessions (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id),
                        created_at BIGINT NOT NULL,
                        revoked_at BIGINT
                    );
                    CREATE TABLE refresh_tokens (
                        token_hash TEXT PRIMARY KEY NOT NULL,
                        session_id TEXT NOT NULL REFERENCES sessions(id),
                        created_at BIGINT NOT NULL,
                        expires_at BIGINT NOT NULL,
                        used_at BIGINT
                    );
                    CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
                    CREATE TABLE products (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq BIGINT NOT NULL UNIQUE,
                        seller_id TEXT NOT NULL REFERENCES users(id),
                        title TEXT NOT NULL,
                        description TEXT NOT NULL,
                        price_cents BIGINT NOT NULL,
                        currency TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    );
                    CREATE TABLE conversations (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_low TEXT NOT NULL REFERENCES users(id),
                        user_high TEXT NOT NULL REFERENCES users(id),
                        product_id TEXT REFERENCES products(id),
                        product_key TEXT NOT NULL,
                        last_message_id TEXT,
                        created_at BIGINT NOT NULL,
                        updated_at BIGINT NOT NULL,
                        UNIQUE (user_low, user_high, product_key)
                    );
                    CREATE INDEX conversations_low ON conversations(user_low, updated_at);
                    CREATE INDEX conversations_high ON conversations(user_high, updated_at);
                    CREATE TABLE conversation_reads (
                        conversation_id TEXT NOT NULL REFERENCES conversations(id),
                        user_id TEXT NOT NULL REFERENCES users(id),
                        last_read_seq BIGINT NOT NULL,
                        PRIMARY KEY (conversation_id, user_id)
                    );
                    CREATE TABLE messages (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq BIGINT NOT NULL UNIQUE,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id),
                        sender_id TEXT NOT NULL REFERENCES users(id),
                        body TEXT NOT NULL,
                        created_at BIGINT NOT NULL
                    );
                    CREATE INDEX messages_conversation ON messages(conversation_id, seq);
                    CREATE TABLE idempotency_keys (
                        user_id TEXT NOT NULL REFERENCES users(id),
                        idem_key TEXT NOT NULL,
                        message_id TEXT NOT NULL REFERENCES messages(id),
                        created_at BIGINT NOT NULL,
                        PRIMARY KEY (user_id, idem_key)
                    );
                    CREATE TABLE notifications (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq BIGINT NOT NULL UNIQUE,
                        user_id TEXT NOT NULL REFERENCES users(id),
                        type TEXT NOT NULL,
                        is_read INTEGER NOT NULL,
                        conversation_id TEXT REFERENCES conversations(id),
                        message_id TEXT REFERENCES messages(id),
                        created_at BIGINT NOT NULL
                    );
                    CREATE INDEX notifications_user ON notifications(user_id, seq);
                    """)
        }
        migrator.registerMigration("v2-product-search") { db in
            // Full-text index over title and description, kept by triggers; its rowid is the
            // product's seq, so newest-first search walks the index backwards and stops early.
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE products_fts USING fts5(
                        title, description, content = 'products', content_rowid = 'seq',
                        tokenize = '\(SearchTokenizer.arguments.joined(separator: " "))');
                    CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
                        INSERT INTO products_fts (rowid, title, description) VALUES (new.seq, new.title, new.description);
                    END;
                    CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
                        INSERT INTO products_fts (products_fts, rowid, title, description)
                        VALUES ('delete', old.seq, old.title, old.description);
                    END;
                    CREATE TRIGGER products_fts_update AFTER UPDATE OF seq, title, description ON products BEGIN
                        INSERT INTO products_fts (products_fts, rowid, title, description)
                        VALUES ('delete', old.seq, old.title, old.description);
                        INSERT INTO products_fts (rowid, title, description) VALUES (new.seq, new.title, new.description);
                    END;
                    INSERT INTO products_fts (products_fts) VALUES ('rebuild');
                    -- Titles alone, for relevance's first run: a word common in descriptions but
                    -- rare in titles must not make that run read its whole posting list.
                    CREATE VIRTUAL TABLE products_title_fts USING fts5(
                        title, content = 'products', content_rowid = 'seq',
                        tokenize = '\(SearchTokenizer.arguments.joined(separator: " "))');
                    CREATE TRIGGER products_title_fts_insert AFTER INSERT ON products BEGIN
                        INSERT INTO products_title_fts (rowid, title) VALUES (new.seq, new.title);
                    END;
                    CREATE TRIGGER products_title_fts_delete AFTER DELETE ON products BEGIN
                        INSERT INTO products_title_fts (products_title_fts, rowid, title) VALUES ('delete', old.seq, old.title);
                    END;
                    CREATE TRIGGER products_title_fts_update AFTER UPDATE OF seq, title ON products BEGIN
                        INSERT INTO products_title_fts (products_title_fts, rowid, title) VALUES ('delete', old.seq, old.title);
                        INSERT INTO products_title_fts (rowid, title) VALUES (new.seq, new.title);
                    END;
                    INSERT INTO products_title_fts (products_title_fts) VALUES ('rebuild');
                    CREATE INDEX products_seller ON products (seller_id, seq);
                    CREATE INDEX products_price ON products (price_cents, seq);
                    """)
        }
        migrator.registerMigration("v3-product-photos") { db in
            // The order lives on the product (every read of a product needs it, none more); the
            // images in a table of their own, read only when a photo itself is asked for.
            try db.execute(
                sql: """
                    ALTER TABLE products ADD COLUMN photo_ids TEXT NOT NULL DEFAULT '';
                    CREATE TABLE product_photos (
                        id TEXT PRIMARY KEY NOT NULL,
                        product_id TEXT NOT NULL REFERENCES products(id),
                        media_type TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        data BLOB NOT NULL,
                        created_at BIGINT NOT NULL
                    );
                    CREATE INDEX product_photos_product ON product_photos (product_id);
                    """)
        }
        // What the retention prune looks rows up by (it runs every hour; without these, each
        // run would read whole tables).
        migrator.registerMigration("v4-retention") { db in
            try db.execute(
                sql: """
                    CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
                    CREATE INDEX notifications_created ON notifications (created_at);
                    CREATE INDEX refresh_tokens_expires ON refresh_tokens (expires_at);
                    CREATE INDEX refresh_tokens_used ON refresh_tokens (used_at);
                    CREATE INDEX sessions_revoked ON sessions (revoked_at);
                    """)
        }
        // A listing's life: its status and buyer, the version every change moves on (a change
        // applies only to the version it was decided on), when it last changed, and how many saved
        // it. The default list and its price order read only what is available, by indexes of
        // their own, so sold listings cost them nothing.
        migrator.registerMigration("v5-listing-life") { db in
            try db.execute(
                sql: """
                    ALTER TABLE products ADD COLUMN status TEXT NOT NULL DEFAULT 'available';
                    ALTER TABLE products ADD COLUMN buyer_id TEXT REFERENCES users(id);
                    ALTER TABLE products ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE products ADD COLUMN updated_at INTEGER;
                    ALTER TABLE products ADD COLUMN favourite_count INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX products_available ON products (seq) WHERE status = 'available';
                    CREATE INDEX products_available_price ON products (price_cents, seq) WHERE status = 'available';
                    """)
        }
        // Offers, and the timeline lines that tell of them (a message's kind and offer).
        migrator.registerMigration("v6-offers") { db in
            try db.execute(
                sql: """
                    ALTER TABLE messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'text';
                    ALTER TABLE messages ADD COLUMN offer_id TEXT;
                    CREATE TABLE offers (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        product_id TEXT NOT NULL,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id),
                        buyer_id TEXT NOT NULL REFERENCES users(id),
                        amount_cents INTEGER NOT NULL,
                        currency TEXT NOT NULL,
                        status TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL
                    );
                    CREATE INDEX offers_open ON offers (product_id, seq) WHERE status = 'open';
                    CREATE INDEX offers_conversation ON offers (conversation_id, seq);
                    """)
        }
        // Favourites (a product's count kept beside it) and what a notification is about.
        migrator.registerMigration("v7-favourites") { db in
            try db.execute(
                sql: """
                    CREATE TABLE favourites (
                        user_id TEXT NOT NULL REFERENCES users(id),
                        product_id TEXT NOT NULL REFERENCES products(id),
                        seq INTEGER NOT NULL UNIQUE,
                        created_at INTEGER NOT NULL,
                        PRIMARY KEY (user_id, product_id)
                    );
                    CREATE INDEX favourites_user ON favourites (user_id, seq);
                    CREATE INDEX favourites_product ON favourites (product_id);
                    ALTER TABLE notifications ADD COLUMN product_id TEXT;
                    """)
        }
        // Reviews after a sale, and each user's running rating (sum and count, moved with each review).
        migrator.registerMigration("v8-reviews") { db in
            try db.execute(
                sql: """
                    CREATE TABLE reviews (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        product_id TEXT NOT NULL,
                        author_id TEXT NOT NULL REFERENCES users(id),
                        subject_id TEXT NOT NULL REFERENCES users(id),
                        rating INTEGER NOT NULL,
                        text TEXT NOT NULL,
                        created_at INTEGER NOT NULL,
                        UNIQUE (product_id, author_id)
                    );
                    CREATE INDEX reviews_subject ON reviews (subject_id, seq);
                    ALTER TABLE users ADD COLUMN rating_sum INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE users ADD COLUMN rating_count INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        // Roles the operator names (moderators), read at each sign-in.
        migrator.registerMigration("v9-roles") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member'")
        }
        // Trust and the account: blocks, reports and the moderators' record of what they did;
        // suspended and deleted accounts, hidden listings, removed messages; what a session
        // signed in with and when it was last used (and sessions found by user, to end them all).
        migrator.registerMigration("v10-trust") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN suspended_at INTEGER;
                    ALTER TABLE users ADD COLUMN deleted_at INTEGER;
                    ALTER TABLE products ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE messages ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE notifications ADD COLUMN report_id TEXT;
                    ALTER TABLE sessions ADD COLUMN last_used_at INTEGER;
                    ALTER TABLE sessions ADD COLUMN user_agent TEXT;
                    CREATE INDEX sessions_user ON sessions (user_id);
                    CREATE INDEX reviews_author ON reviews (author_id, seq);
                    CREATE INDEX offers_buyer ON offers (buyer_id) WHERE status = 'open';
                    CREATE TABLE blocks (
                        blocker_id TEXT NOT NULL REFERENCES users(id),
                        blocked_id TEXT NOT NULL REFERENCES users(id),
                        seq INTEGER NOT NULL UNIQUE,
                        created_at INTEGER NOT NULL,
                        PRIMARY KEY (blocker_id, blocked_id)
                    );
                    CREATE INDEX blocks_blocker ON blocks (blocker_id, seq);
                    CREATE INDEX blocks_blocked ON blocks (blocked_id);
                    CREATE TABLE reports (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        reporter_id TEXT NOT NULL REFERENCES users(id),
                        subject_type TEXT NOT NULL,
                        subject_id TEXT NOT NULL,
                        subject_user_id TEXT NOT NULL REFERENCES users(id),
                        reason TEXT NOT NULL,
                        note TEXT,
                        status TEXT NOT NULL,
                        action TEXT,
                        created_at INTEGER NOT NULL,
                        resolved_at INTEGER
                    );
                    CREATE UNIQUE INDEX reports_open_once ON reports (reporter_id, subject_type, subject_id)
                        WHERE status = 'open';
                    CREATE INDEX reports_status ON reports (status, seq);
                    CREATE INDEX reports_reporter ON reports (reporter_id, seq);
                    CREATE INDEX reports_subject ON reports (subject_type, subject_id) WHERE status = 'open';
                    CREATE TABLE moderation_actions (
                        id TEXT PRIMARY KEY NOT NULL,
                        seq INTEGER NOT NULL UNIQUE,
                        report_id TEXT NOT NULL REFERENCES reports(id),
                        moderator_id TEXT NOT NULL REFERENCES users(id),
                        action TEXT NOT NULL,
                        subject_type TEXT NOT NULL,
                        subject_id TEXT NOT NULL,
                        note TEXT,
                        created_at INTEGER NOT NULL
                    );
                    CREATE INDEX moderation_actions_report ON moderation_actions (report_id);
                    """)
        }
        // Photos in sizes: every size of every photo (a product's, a profile's, a chat's) in one
        // table, read one row per request; the uploads' own tables keep who and where. A
        // photo's sizes go with it, whichever way it is deleted. `product_photos.data` and
        // `photos.data` hold an upload from before sizes until `photos rebuild` empties them.
        migrator.registerMigration("v11-photo-sizes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE photo_sizes (
                        photo_id TEXT NOT NULL,
                        size TEXT NOT NULL,
                        media_type TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        data BLOB NOT NULL,
                        PRIMARY KEY (photo_id, size)
                    );
                    CREATE TABLE attachments (
                        id TEXT PRIMARY KEY NOT NULL,
                        conversation_id TEXT NOT NULL REFERENCES conversations(id),
                        uploader_id TEXT NOT NULL REFERENCES users(id),
                        message_id TEXT,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        byte_count INTEGER NOT NULL,
                        created_at INTEGER NOT NULL
                    );
                    CREATE INDEX attachments_uploader ON attachments (uploader_id, created_at);
                    CREATE INDEX attachments_message ON attachments (message_id) WHERE message_id IS NOT NULL;
                    ALTER TABLE messages ADD COLUMN attachments TEXT NOT NULL DEFAULT '';
                    CREATE TRIGGER product_photos_sizes AFTER DELETE ON product_photos
                    BEGIN DELETE FROM photo_sizes WHERE photo_id = OLD.id; END;
                    CREATE TRIGGER photos_sizes AFTER DELETE ON photos
                    BEGIN DELETE FROM photo_sizes WHERE photo_id = OLD.user_id; END;
                    CREATE TRIGGER attachments_sizes AFTER DELETE ON attachments
                    BEGIN DELETE FROM photo_sizes WHERE photo_id = OLD.id; END;
                    """)
        }
        return migrator
    }
}
