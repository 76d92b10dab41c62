-- The back office (backoffice.Store): the audit trail of staff actions, and the summaries its
-- reports read, folded from the journals by the aggregator past a mark per journal (never by
-- the commit path). Money is minor units; times Unix nanoseconds; days 'YYYY-MM-DD' (UTC).

-- Every staff action: who, when, what and why. Append-only, as the ledger is.
CREATE TABLE audit_log (
	seq    INTEGER PRIMARY KEY,
	at     INTEGER NOT NULL,
	actor  TEXT NOT NULL,
	role   TEXT NOT NULL,
	action TEXT NOT NULL,
	target TEXT NOT NULL,
	reason TEXT NOT NULL,
	detail TEXT NOT NULL,
	ref    TEXT NOT NULL,
	source TEXT NOT NULL CHECK (source IN ('office', 'journal'))
) STRICT;
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor, seq);
CREATE INDEX audit_log_target ON audit_log (target, seq);
CREATE INDEX audit_log_action ON audit_log (action, seq);
CREATE INDEX audit_log_ref ON audit_log (ref) WHERE ref <> '';
CREATE TRIGGER audit_log_append_only_u BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_append_only_d BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- How far each journal is folded, and what the fold carries on (JSON).
CREATE TABLE bo_marks (
	table_id TEXT PRIMARY KEY,
	seq      INTEGER NOT NULL CHECK (seq >= 0),
	state    TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- What each table is, from its first record.
CREATE TABLE bo_tables (
	table_id   TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	game       TEXT NOT NULL,
	mode       TEXT NOT NULL,
	currency   TEXT NOT NULL,
	tournament TEXT NOT NULL,
	config     TEXT NOT NULL,
	created    INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- A table's business on a UTC day, in its currency (backoffice.Figures).
CREATE TABLE bo_days (
	day       TEXT NOT NULL,
	table_id  TEXT NOT NULL,
	currency  TEXT NOT NULL,
	game      TEXT NOT NULL,
	rounds    INTEGER NOT NULL,
	voids     INTEGER NOT NULL,
	wagers    INTEGER NOT NULL,
	staked    INTEGER NOT NULL,
	withdrawn INTEGER NOT NULL,
	settled   INTEGER NOT NULL,
	returned  INTEGER NOT NULL,
	refunded  INTEGER NOT NULL,
	PRIMARY KEY (day, table_id, currency)
) STRICT, WITHOUT ROWID;
CREATE INDEX bo_days_table ON bo_days (table_id, day);
CREATE INDEX bo_days_game ON bo_days (game, day);

-- Each bet's business on a table's day, with the variant that prices it.
CREATE TABLE bo_bets (
	day      TEXT NOT NULL,
	table_id TEXT NOT NULL,
	currency TEXT NOT NULL,
	bet      TEXT NOT NULL,
	game     TEXT NOT NULL,
	variant  TEXT NOT NULL,
	wagers   INTEGER NOT NULL,
	staked   INTEGER NOT NULL,
	settled  INTEGER NOT NULL,
	returned INTEGER NOT NULL,
	PRIMARY KEY (day, table_id, currency, bet)
) STRICT, WITHOUT ROWID;
CREATE INDEX bo_bets_table ON bo_bets (table_id, day);
-- The same by month, so that a report over months reads a row a month rather than thirty.
CREATE TABLE bo_bet_months (
	month    TEXT NOT NULL,
	table_id TEXT NOT NULL,
	currency TEXT NOT NULL,
	bet      TEXT NOT NULL,
	game     TEXT NOT NULL,
	variant  TEXT NOT NULL,
	wagers   INTEGER NOT NULL,
	staked   INTEGER NOT NULL,
	settled  INTEGER NOT NULL,
	returned INTEGER NOT NULL,
	PRIMARY KEY (month, table_id, currency, bet)
) STRICT, WITHOUT ROWID;

-- Where each round, wager and shoe is in its table's journal: game recall by round, wager or
-- transaction without reading a journal from its start.
CREATE TABLE bo_rounds (
	table_id  TEXT NOT NULL,
	round     INTEGER NOT NULL,
	first_seq INTEGER NOT NULL,
	last_seq  INTEGER NOT NULL,
	shoe      INTEGER NOT NULL,
	at        INTEGER NOT NULL,
	status    TEXT NOT NULL,
	result    TEXT NOT NULL,
	PRIMARY KEY (table_id, round)
) STRICT, WITHOUT ROWID;
CREATE TABLE bo_wagers (
	table_id TEXT NOT NULL,
	wager    INTEGER NOT NULL,
	round    INTEGER NOT NULL,
	player   TEXT NOT NULL,
	bet      TEXT NOT NULL,
	stake    INTEGER NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (table_id, wager)
) STRICT, WITHOUT ROWID;
CREATE INDEX bo_wagers_player ON bo_wagers (player, at);
CREATE TABLE bo_shoes (
	table_id    TEXT NOT NULL,
	shoe        INTEGER NOT NULL,
	started_seq INTEGER NOT NULL,
	ended_seq   INTEGER NOT NULL,
	PRIMARY KEY (table_id, shoe)
) STRICT, WITHOUT ROWID;

-- Tournaments: what each is, and its money by UTC day.
CREATE TABLE bo_tournaments (
	tournament TEXT PRIMARY KEY,
	info       TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE bo_tournament_days (
	tournament TEXT NOT NULL,
	day        TEXT NOT NULL,
	fees       INTEGER NOT NULL,
	bot_fees   INTEGER NOT NULL,
	rebuys     INTEGER NOT NULL,
	refunds    INTEGER NOT NULL,
	prizes     INTEGER NOT NULL,
	bot_prizes INTEGER NOT NULL,
	top_up     INTEGER NOT NULL,
	entries    INTEGER NOT NULL,
	PRIMARY KEY (tournament, day)
) STRICT, WITHOUT ROWID;
CREATE INDEX bo_tournament_days_day ON bo_tournament_days (day);

-- Tournaments set up once and kept under a name.
CREATE TABLE bo_templates (
	name    TEXT PRIMARY KEY,
	spec    TEXT NOT NULL,
	by_whom TEXT NOT NULL,
	updated INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
