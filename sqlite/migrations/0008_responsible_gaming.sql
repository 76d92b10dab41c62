-- Responsible gaming (package responsible). A player's limits as the operator or an admin
-- set them (JSON), and an exclusion the player chose on our pages; currency '' until a
-- launch or an admin names it.
CREATE TABLE rg_players (
	player     TEXT PRIMARY KEY,
	currency   TEXT NOT NULL DEFAULT '',
	limits     TEXT NOT NULL DEFAULT '{}',
	self_kind  TEXT NOT NULL DEFAULT '',
	self_until INTEGER NOT NULL DEFAULT 0,
	updated    INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Play sessions: from sign-in to their end (ended NULL while they run). checked is when the
-- last reality check was answered.
CREATE TABLE rg_sessions (
	id      INTEGER PRIMARY KEY,
	player  TEXT NOT NULL,
	started INTEGER NOT NULL,
	checked INTEGER NOT NULL,
	ended   INTEGER,
	reason  TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX rg_sessions_player ON rg_sessions (player, id);

-- What a player staked and got back by session ('s:<id>') and UTC day ('d:<date>'), moved
-- only in the commits of the wagers and settlements themselves.
CREATE TABLE rg_tallies (
	player   TEXT NOT NULL,
	currency TEXT NOT NULL,
	period   TEXT NOT NULL,
	staked   INTEGER NOT NULL DEFAULT 0 CHECK (staked >= 0),
	settled  INTEGER NOT NULL DEFAULT 0 CHECK (settled >= 0),
	returned INTEGER NOT NULL DEFAULT 0 CHECK (returned >= 0),
	PRIMARY KEY (player, currency, period)
) STRICT, WITHOUT ROWID;

-- Wagers in play, with the session and day their stake counted in (so their return counts
-- there too); a row leaves when its wager settles.
CREATE TABLE rg_wagers (
	table_id TEXT NOT NULL,
	wager    INTEGER NOT NULL,
	player   TEXT NOT NULL,
	currency TEXT NOT NULL,
	round    INTEGER NOT NULL,
	session  INTEGER NOT NULL,
	day      TEXT NOT NULL,
	stake    INTEGER NOT NULL CHECK (stake > 0),
	PRIMARY KEY (table_id, wager)
) STRICT, WITHOUT ROWID;
CREATE INDEX rg_wagers_player ON rg_wagers (player);

-- Every event of a player's limits and sessions (responsible.Event as JSON in data): their
-- record, the back office's audit trail, and the operator's webhooks (delivery pending until
-- the operator answers). once makes a limit reached one event per limit and period.
CREATE TABLE rg_events (
	seq      INTEGER PRIMARY KEY,
	player   TEXT NOT NULL,
	at       INTEGER NOT NULL,
	kind     TEXT NOT NULL,
	data     TEXT NOT NULL,
	once     TEXT UNIQUE,
	delivery TEXT NOT NULL DEFAULT '' CHECK (delivery IN ('', 'pending', 'done')),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at  INTEGER NOT NULL DEFAULT 0,
	error    TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX rg_events_player ON rg_events (player, seq);
CREATE INDEX rg_events_due ON rg_events (next_at) WHERE delivery = 'pending';
