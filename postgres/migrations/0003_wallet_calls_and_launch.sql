-- Seamless wallets (journal.WalletCall): our side of every call to the operator's wallet. A
-- debit is written before it is sent and marked placed in its wager's commit; the credits
-- and rollbacks that close debits are written in the commit of the settlement (the outbox)
-- and delivered until answered. Amounts are minor units; times BIGINT Unix nanoseconds.
CREATE TABLE wallet_calls (
	seq         BIGSERIAL PRIMARY KEY,
	tx          TEXT COLLATE "C" NOT NULL UNIQUE,
	kind        TEXT NOT NULL CHECK (kind IN ('debit', 'credit', 'rollback')),
	player      TEXT COLLATE "C" NOT NULL,
	currency    TEXT NOT NULL,
	amount      BIGINT NOT NULL CHECK (amount >= 0),
	table_id    TEXT COLLATE "C" NOT NULL,
	round       BIGINT NOT NULL CHECK (round >= 0),
	wager       BIGINT NOT NULL CHECK (wager >= 0),
	debit_tx    TEXT COLLATE "C", -- a credit or rollback: the debit it closes
	state       TEXT NOT NULL CHECK (state IN ('pending', 'placed', 'cancelled', 'done', 'failed')),
	request_id  TEXT COLLATE "C", -- a debit: the player's request id, and which attempt at it
	attempt     INTEGER NOT NULL DEFAULT 0,
	digest      TEXT,
	table_wager BIGINT, -- the wager's id at the table
	balance     BIGINT, -- the operator's answer
	attempts    INTEGER NOT NULL DEFAULT 0,
	error       TEXT NOT NULL DEFAULT '',
	created     BIGINT NOT NULL,
	updated     BIGINT NOT NULL,
	next_at     BIGINT NOT NULL DEFAULT 0,
	CHECK ((kind = 'debit') = (debit_tx IS NULL)),
	CHECK (kind <> 'debit' OR (request_id IS NOT NULL AND attempt >= 1)),
	CHECK (kind = 'debit' OR state IN ('pending', 'done', 'failed'))
);
CREATE UNIQUE INDEX wallet_calls_request ON wallet_calls (player, request_id, attempt) WHERE kind = 'debit';
CREATE UNIQUE INDEX wallet_calls_wager ON wallet_calls (table_id, table_wager) WHERE kind = 'debit' AND table_wager IS NOT NULL;
-- A debit is closed at most once: by one credit or one rollback.
CREATE UNIQUE INDEX wallet_calls_closer ON wallet_calls (debit_tx) WHERE debit_tx IS NOT NULL;
CREATE INDEX wallet_calls_due ON wallet_calls (next_at) WHERE state = 'pending' AND kind <> 'debit';
CREATE INDEX wallet_calls_open_debits ON wallet_calls (updated) WHERE state = 'pending' AND kind = 'debit';
CREATE INDEX wallet_calls_created ON wallet_calls (created);

-- A player's currency and language, as the operator's launch gave them.
ALTER TABLE principals ADD COLUMN currency TEXT NOT NULL DEFAULT '';
ALTER TABLE principals ADD COLUMN language TEXT NOT NULL DEFAULT '';

-- Launch codes already exchanged for a token: a code works once. Kept until they expire.
CREATE TABLE launch_codes (
	id      TEXT COLLATE "C" PRIMARY KEY,
	player  TEXT NOT NULL,
	used    BIGINT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX launch_codes_expires ON launch_codes (expires);
