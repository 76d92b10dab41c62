-- Books and journals. The money rules are repeated here as constraints so that no code
-- path, present or future, can write books that break them: CHECK keeps every account but
-- the house non-negative, UNIQUE keys make idempotency a database fact, and the journal's
-- primary key (table_id, seq) lets one record exist per place in a table's chain.
-- Ids are COLLATE "C" so the database sorts them bytewise, as Go does: rows are locked in
-- that order. Times are BIGINT Unix nanoseconds: exact, so record hashes verify.

CREATE TABLE accounts (
	id       TEXT COLLATE "C" PRIMARY KEY,
	kind     TEXT NOT NULL CHECK (kind IN ('wallet', 'house', 'inplay')),
	currency TEXT COLLATE "C" NOT NULL,
	balance  BIGINT NOT NULL DEFAULT 0,
	entries  BIGINT NOT NULL DEFAULT 0 CHECK (entries >= 0),
	CHECK (kind = 'house' OR balance >= 0)
);

CREATE SEQUENCE ledger_transactions_id_seq;

CREATE TABLE ledger_transactions (
	id       BIGINT PRIMARY KEY DEFAULT nextval('ledger_transactions_id_seq'),
	key      TEXT COLLATE "C" NOT NULL UNIQUE,
	digest   BYTEA NOT NULL CHECK (length(digest) = 32),
	currency TEXT COLLATE "C" NOT NULL,
	memo     TEXT NOT NULL,
	table_id TEXT NOT NULL,
	round    BIGINT NOT NULL CHECK (round >= 0),
	at_ns    BIGINT NOT NULL
);

ALTER SEQUENCE ledger_transactions_id_seq OWNED BY ledger_transactions.id;

-- account_id and tx_id are checked by the statement-level trigger below rather than by
-- FOREIGN KEY: a row-level foreign key costs two lookups per entry, which measured 17 of
-- 22 ms of a 512-wager group commit; one anti-join per statement enforces the same.
CREATE TABLE ledger_entries (
	account_id TEXT COLLATE "C" NOT NULL,
	seq        BIGINT NOT NULL CHECK (seq >= 1),
	tx_id      BIGINT NOT NULL,
	amount     BIGINT NOT NULL CHECK (amount <> 0),
	balance    BIGINT NOT NULL,
	PRIMARY KEY (account_id, seq)
);

CREATE TABLE journal (
	table_id TEXT COLLATE "C" NOT NULL,
	seq      BIGINT NOT NULL CHECK (seq >= 1),
	type     TEXT NOT NULL,
	data     BYTEA NOT NULL, -- not jsonb: the hash covers the exact bytes
	at_ns    BIGINT NOT NULL,
	prev     BYTEA NOT NULL CHECK (length(prev) = 32),
	hash     BYTEA NOT NULL CHECK (length(hash) = 32),
	PRIMARY KEY (table_id, seq)
);

-- One row per table: its head, locked FOR UPDATE by every append, so two servers writing
-- one table queue here and the second finds the head moved (a conflict). Seq 0 is the
-- placeholder of a table whose first append is under way.
CREATE TABLE journal_heads (
	table_id TEXT COLLATE "C" PRIMARY KEY,
	seq      BIGINT NOT NULL CHECK (seq >= 0),
	hash     BYTEA NOT NULL CHECK (length(hash) = 32)
);

-- A free lease is a row with owner ''; the row is kept as the lock point.
CREATE TABLE leases (
	table_id   TEXT COLLATE "C" PRIMARY KEY,
	owner      TEXT NOT NULL,
	expires_ns BIGINT NOT NULL
);

-- History is append-only: entries, transactions and records are never changed or removed,
-- and accounts are never removed.
CREATE FUNCTION refuse_history_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'cannot % on %: history is kept', TG_OP, TG_TABLE_NAME;
END $$;
CREATE TRIGGER accounts_never_removed BEFORE DELETE ON accounts
	FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
	FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
	FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER journal_append_only BEFORE UPDATE OR DELETE ON journal
	FOR EACH ROW EXECUTE FUNCTION refuse_history_change();

-- Every new entry names an existing account and transaction (a foreign key, checked once
-- per statement; nothing can remove the referenced rows afterwards).
CREATE FUNCTION check_new_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM new_entries n
		WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = n.account_id)
		   OR NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = n.tx_id)) THEN
		RAISE EXCEPTION 'ledger_entries: an entry names a missing account or transaction'
			USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER ledger_entries_references AFTER INSERT ON ledger_entries
	REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION check_new_entries();
