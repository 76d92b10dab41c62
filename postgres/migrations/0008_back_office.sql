-- The back office (backoffice.Store): the audit trail of staff actions, and the summaries its
-- reports read, folded from the journals by the aggregator past a mark per journal (never by
-- the commit path). Money is minor units; times BIGINT Unix nanoseconds; days 'YYYY-MM-DD'
-- (UTC), which sort as dates.

-- Every staff action: who, when, what and why. Append-only, as the ledger is.
CREATE TABLE audit_log (
	seq    BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	at_ns  BIGINT NOT NULL,
	actor  TEXT COLLATE "C" NOT NULL,
	role   TEXT NOT NULL,
	action TEXT COLLATE "C" NOT NULL,
	target TEXT COLLATE "C" NOT NULL,
	reason TEXT NOT NULL,
	detail TEXT NOT NULL,
	ref    TEXT COLLATE "C" NOT NULL,
	source TEXT NOT NULL CHECK (source IN ('office', 'journal'))
);
CREATE INDEX audit_log_at ON audit_log (at_ns);
CREATE INDEX audit_log_actor ON audit_log (actor, seq);
CREATE INDEX audit_log_target ON audit_log (target, seq);
CREATE INDEX audit_log_action ON audit_log (action, seq);
CREATE INDEX audit_log_ref ON audit_log (ref) WHERE ref <> '';
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
	FOR EACH ROW EXECUTE FUNCTION refuse_history_change();
CREATE TRIGGER audit_log_never_truncated BEFORE TRUNCATE ON audit_log
	FOR EACH STATEMENT EXECUTE FUNCTION refuse_history_change();

-- How far each journal is folded, and what the fold carries on (JSON).
CREATE TABLE bo_marks (
	table_id TEXT COLLATE "C" PRIMARY KEY,
	seq      BIGINT NOT NULL CHECK (seq >= 0),
	state    TEXT NOT NULL
);

-- What each table is, from its first record.
CREATE TABLE bo_tables (
	table_id   TEXT COLLATE "C" PRIMARY KEY,
	name       TEXT NOT NULL,
	game       TEXT NOT NULL,
	mode       TEXT NOT NULL,
	currency   TEXT COLLATE "C" NOT NULL,
	tournament TEXT NOT NULL,
	config     TEXT NOT NULL,
	created    BIGINT NOT NULL
);

-- A table's business on a UTC day, in its currency (backoffice.Figures).
CREATE TABLE bo_days (
	day       TEXT COLLATE "C" NOT NULL,
	table_id  TEXT COLLATE "C" NOT NULL,
	currency  TEXT COLLATE "C" NOT NULL,
	game      TEXT COLLATE "C" NOT NULL,
	rounds    BIGINT NOT NULL,
	voids     BIGINT NOT NULL,
	wagers    BIGINT NOT NULL,
	staked    BIGINT NOT NULL,
	withdrawn BIGINT NOT NULL,
	settled   BIGINT NOT NULL,
	returned  BIGINT NOT NULL,
	refunded  BIGINT NOT NULL,
	PRIMARY KEY (day, table_id, currency)
);
CREATE INDEX bo_days_table ON bo_days (table_id, day);
CREATE INDEX bo_days_game ON bo_days (game, day);

-- Each bet's business on a table's day, with the variant that prices it.
CREATE TABLE bo_bets (
	day      TEXT COLLATE "C" NOT NULL,
	table_id TEXT COLLATE "C" NOT NULL,
	currency TEXT COLLATE "C" NOT NULL,
	bet      TEXT COLLATE "C" NOT NULL,
	game     TEXT COLLATE "C" NOT NULL,
	variant  TEXT COLLATE "C" NOT NULL,
	wagers   BIGINT NOT NULL,
	staked   BIGINT NOT NULL,
	settled  BIGINT NOT NULL,
	returned BIGINT NOT NULL,
	PRIMARY KEY (day, table_id, currency, bet)
);
CREATE INDEX bo_bets_table ON bo_bets (table_id, day);
-- The same by month, so that a report over months reads a row a month rather than thirty.
CREATE TABLE bo_bet_months (
	month    TEXT COLLATE "C" NOT NULL,
	table_id TEXT COLLATE "C" NOT NULL,
	currency TEXT COLLATE "C" NOT NULL,
	bet      TEXT COLLATE "C" NOT NULL,
	game     TEXT COLLATE "C" NOT NULL,
	variant  TEXT COLLATE "C" NOT NULL,
	wagers   BIGINT NOT NULL,
	staked   BIGINT NOT NULL,
	settled  BIGINT NOT NULL,
	returned BIGINT NOT NULL,
	PRIMARY KEY (month, table_id, currency, bet)
);

-- Where each round, wager and shoe is in its table's journal.
CREATE TABLE bo_rounds (
	table_id  TEXT COLLATE "C" NOT NULL,
	round     BIGINT NOT NULL,
	first_seq BIGINT NOT NULL,
	last_seq  BIGINT NOT NULL,
	shoe      BIGINT NOT NULL,
	at_ns     BIGINT NOT NULL,
	status    TEXT NOT NULL,
	result    TEXT NOT NULL,
	PRIMARY KEY (table_id, round)
);
CREATE TABLE bo_wagers (
	table_id TEXT COLLATE "C" NOT NULL,
	wager    BIGINT NOT NULL,
	round    BIGINT NOT NULL,
	player   TEXT COLLATE "C" NOT NULL,
	bet      TEXT NOT NULL,
	stake    BIGINT NOT NULL,
	at_ns    BIGINT NOT NULL,
	PRIMARY KEY (table_id, wager)
);
CREATE INDEX bo_wagers_player ON bo_wagers (player, at_ns);
CREATE TABLE bo_shoes (
	table_id    TEXT COLLATE "C" NOT NULL,
	shoe        BIGINT NOT NULL,
	started_seq BIGINT NOT NULL,
	ended_seq   BIGINT NOT NULL,
	PRIMARY KEY (table_id, shoe)
);

-- Tournaments: what each is, and its money by UTC day.
CREATE TABLE bo_tournaments (
	tournament TEXT COLLATE "C" PRIMARY KEY,
	info       TEXT NOT NULL
);
CREATE TABLE bo_tournament_days (
	tournament TEXT COLLATE "C" NOT NULL,
	day        TEXT COLLATE "C" NOT NULL,
	fees       BIGINT NOT NULL,
	bot_fees   BIGINT NOT NULL,
	rebuys     BIGINT NOT NULL,
	refunds    BIGINT NOT NULL,
	prizes     BIGINT NOT NULL,
	bot_prizes BIGINT NOT NULL,
	top_up     BIGINT NOT NULL,
	entries    BIGINT NOT NULL,
	PRIMARY KEY (tournament, day)
);
CREATE INDEX bo_tournament_days_day ON bo_tournament_days (day);

-- Tournaments set up once and kept under a name.
CREATE TABLE bo_templates (
	name    TEXT COLLATE "C" PRIMARY KEY,
	spec    TEXT NOT NULL,
	by_whom TEXT NOT NULL,
	updated BIGINT NOT NULL
);
