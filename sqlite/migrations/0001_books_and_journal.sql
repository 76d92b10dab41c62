-- Books and journals. The money rules are repeated here as constraints so that no code
-- path, present or future, can write books that break them: CHECK keeps every account but
-- the house non-negative, UNIQUE keys make idempotency a database fact, and the journal's
-- primary key (table_id, seq) lets one record exist per place in a table's chain.
-- Times are INTEGER Unix nanoseconds: exact, so record hashes verify after a round trip.

CREATE TABLE accounts (
	id       TEXT PRIMARY KEY,
	kind     TEXT NOT NULL CHECK (kind IN ('wallet', 'house', 'inplay')),
	currency TEXT NOT NULL,
	balance  INTEGER NOT NULL DEFAULT 0,
	entries  INTEGER NOT NULL DEFAULT 0 CHECK (entries >= 0),
	CHECK (kind = 'house' OR balance >= 0)
) STRICT, WITHOUT ROWID;

CREATE TABLE ledger_transactions (
	id       INTEGER PRIMARY KEY,
	key      TEXT NOT NULL UNIQUE,
	digest   BLOB NOT NULL CHECK (length(digest) = 32),
	currency TEXT NOT NULL,
	memo     TEXT NOT NULL,
	table_id TEXT NOT NULL,
	round    INTEGER NOT NULL CHECK (round >= 0),
	at       INTEGER NOT NULL
) STRICT;

CREATE TABLE ledger_entries (
	account_id TEXT NOT NULL REFERENCES accounts (id),
	seq        INTEGER NOT NULL CHECK (seq >= 1),
	tx_id      INTEGER NOT NULL REFERENCES ledger_transactions (id),
	amount     INTEGER NOT NULL CHECK (amount <> 0),
	balance    INTEGER NOT NULL,
	PRIMARY KEY (account_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE journal (
	table_id TEXT NOT NULL,
	seq      INTEGER NOT NULL CHECK (seq >= 1),
	type     TEXT NOT NULL,
	data     BLOB NOT NULL,
	at       INTEGER NOT NULL,
	prev     BLOB NOT NULL CHECK (length(prev) = 32),
	hash     BLOB NOT NULL CHECK (length(hash) = 32),
	PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;

-- One row per table: its head, read and moved in the same transaction as the appends.
CREATE TABLE journal_heads (
	table_id TEXT PRIMARY KEY,
	seq      INTEGER NOT NULL CHECK (seq >= 1),
	hash     BLOB NOT NULL CHECK (length(hash) = 32)
) STRICT, WITHOUT ROWID;

CREATE TABLE leases (
	table_id TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	expires  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- History is append-only: entries, transactions and records are never changed or removed.
CREATE TRIGGER ledger_entries_append_only_u BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
CREATE TRIGGER ledger_entries_append_only_d BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END;
CREATE TRIGGER ledger_transactions_append_only_u BEFORE UPDATE ON ledger_transactions
BEGIN SELECT RAISE(ABORT, 'ledger_transactions is append-only'); END;
CREATE TRIGGER ledger_transactions_append_only_d BEFORE DELETE ON ledger_transactions
BEGIN SELECT RAISE(ABORT, 'ledger_transactions is append-only'); END;
CREATE TRIGGER journal_append_only_u BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER journal_append_only_d BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
