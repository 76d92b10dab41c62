-- A credit or rollback the operator refused is resolved by an admin: resent (a new call,
-- with a new tx id, carries it on: resent_as, and replaces on the new one) or settled by hand
-- (the operator paid the player some other way). Who, when and why are kept with the call.
-- The two state checks are the ones 0003 made (named by PostgreSQL): they are replaced.
ALTER TABLE wallet_calls DROP CONSTRAINT wallet_calls_state_check, DROP CONSTRAINT wallet_calls_check2;
ALTER TABLE wallet_calls
	ADD COLUMN replaces    TEXT COLLATE "C", -- a resent call: the refused call it carries on
	ADD COLUMN resolution  TEXT NOT NULL DEFAULT '' CHECK (resolution IN ('', 'resend', 'settle')),
	ADD COLUMN resolved_by TEXT NOT NULL DEFAULT '',
	ADD COLUMN resolved_at BIGINT NOT NULL DEFAULT 0,
	ADD COLUMN reason      TEXT NOT NULL DEFAULT '',
	ADD COLUMN resent_as   TEXT COLLATE "C", -- a resent call: the call that carries it on
	ADD CONSTRAINT wallet_calls_state CHECK (state IN ('pending', 'placed', 'cancelled', 'done', 'failed', 'resent', 'settled')),
	ADD CONSTRAINT wallet_calls_closer_state CHECK (kind = 'debit' OR state IN ('pending', 'done', 'failed', 'resent', 'settled')),
	ADD CONSTRAINT wallet_calls_resolution CHECK ((state = 'resent') = (resolution = 'resend') AND (state = 'settled') = (resolution = 'settle')),
	ADD CONSTRAINT wallet_calls_resent_as CHECK ((state = 'resent') = (resent_as IS NOT NULL)),
	ADD CONSTRAINT wallet_calls_resolved CHECK (resolution = '' OR (kind <> 'debit' AND resolved_by <> '' AND resolved_at > 0)),
	ADD CONSTRAINT wallet_calls_settle_reason CHECK (resolution <> 'settle' OR reason <> '');
-- A debit is closed at most once: by one credit or one rollback. A call resent is no longer
-- its closer: the call that carries it on is.
DROP INDEX wallet_calls_closer;
CREATE UNIQUE INDEX wallet_calls_closer ON wallet_calls (debit_tx) WHERE debit_tx IS NOT NULL AND state <> 'resent';
CREATE UNIQUE INDEX wallet_calls_replaces ON wallet_calls (replaces) WHERE replaces IS NOT NULL;
