-- A credit or rollback the operator refused is resolved by an admin: resent (a new call,
-- with a new tx id, carries it on: resent_as, and replaces on the new one) or settled by hand
-- (the operator paid the player some other way). Who, when and why are kept with the call.
-- SQLite cannot alter a CHECK, so the table is made again with the two new states and the
-- audit's columns, and its rows copied with their seq.
CREATE TABLE wallet_calls_new (
	seq         INTEGER PRIMARY KEY,
	tx          TEXT NOT NULL UNIQUE,
	kind        TEXT NOT NULL CHECK (kind IN ('debit', 'credit', 'rollback')),
	player      TEXT NOT NULL,
	currency    TEXT NOT NULL,
	amount      INTEGER NOT NULL CHECK (amount >= 0),
	table_id    TEXT NOT NULL,
	round       INTEGER NOT NULL CHECK (round >= 0),
	wager       INTEGER NOT NULL CHECK (wager >= 0),
	debit_tx    TEXT, -- a credit or rollback: the debit it closes
	state       TEXT NOT NULL CHECK (state IN ('pending', 'placed', 'cancelled', 'done', 'failed', 'resent', 'settled')),
	request_id  TEXT, -- a debit: the player's request id, and which attempt at it
	attempt     INTEGER NOT NULL DEFAULT 0,
	digest      TEXT,
	table_wager INTEGER, -- the wager's id at the table
	balance     INTEGER, -- the operator's answer
	attempts    INTEGER NOT NULL DEFAULT 0,
	error       TEXT NOT NULL DEFAULT '',
	created     INTEGER NOT NULL,
	updated     INTEGER NOT NULL,
	next_at     INTEGER NOT NULL DEFAULT 0,
	replaces    TEXT, -- a resent call: the refused call it carries on
	resolution  TEXT NOT NULL DEFAULT '' CHECK (resolution IN ('', 'resend', 'settle')),
	resolved_by TEXT NOT NULL DEFAULT '',
	resolved_at INTEGER NOT NULL DEFAULT 0,
	reason      TEXT NOT NULL DEFAULT '',
	resent_as   TEXT, -- a resent call: the call that carries it on
	CHECK ((kind = 'debit') = (debit_tx IS NULL)),
	CHECK (kind <> 'debit' OR (request_id IS NOT NULL AND attempt >= 1)),
	CHECK (kind = 'debit' OR state IN ('pending', 'done', 'failed', 'resent', 'settled')),
	CHECK ((state = 'resent') = (resolution = 'resend') AND (state = 'settled') = (resolution = 'settle')),
	CHECK ((state = 'resent') = (resent_as IS NOT NULL)),
	CHECK (resolution = '' OR (kind <> 'debit' AND resolved_by <> '' AND resolved_at > 0)),
	CHECK (resolution <> 'settle' OR reason <> '')
) STRICT;
INSERT INTO wallet_calls_new (seq, tx, kind, player, currency, amount, table_id, round, wager, debit_tx, state, request_id,
	attempt, digest, table_wager, balance, attempts, error, created, updated, next_at)
SELECT seq, tx, kind, player, currency, amount, table_id, round, wager, debit_tx, state, request_id,
	attempt, digest, table_wager, balance, attempts, error, created, updated, next_at FROM wallet_calls;
DROP TABLE wallet_calls;
ALTER TABLE wallet_calls_new RENAME TO wallet_calls;
CREATE UNIQUE INDEX wallet_calls_request ON wallet_calls (player, request_id, attempt) WHERE kind = 'debit';
CREATE UNIQUE INDEX wallet_calls_wager ON wallet_calls (table_id, table_wager) WHERE kind = 'debit' AND table_wager IS NOT NULL;
-- A debit is closed at most once: by one credit or one rollback. A call resent is no longer
-- its closer: the call that carries it on is.
CREATE UNIQUE INDEX wallet_calls_closer ON wallet_calls (debit_tx) WHERE debit_tx IS NOT NULL AND state <> 'resent';
CREATE UNIQUE INDEX wallet_calls_replaces ON wallet_calls (replaces) WHERE replaces IS NOT NULL;
CREATE INDEX wallet_calls_due ON wallet_calls (next_at) WHERE state = 'pending' AND kind <> 'debit';
CREATE INDEX wallet_calls_open_debits ON wallet_calls (updated) WHERE state = 'pending' AND kind = 'debit';
CREATE INDEX wallet_calls_created ON wallet_calls (created);
