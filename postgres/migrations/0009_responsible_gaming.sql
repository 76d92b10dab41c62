-- Responsible gaming (package responsible). A player's limits as the operator or an admin
-- set them (JSON), and an exclusion the player chose on our pages; currency '' until a
-- launch or an admin names it. A commit that books a player's wagers locks their row here,
-- so two servers' commits for one player take turns.
CREATE TABLE rg_players (
	player     TEXT COLLATE "C" PRIMARY KEY,
	currency   TEXT NOT NULL DEFAULT '',
	limits     TEXT NOT NULL DEFAULT '{}',
	self_kind  TEXT NOT NULL DEFAULT '',
	self_until BIGINT NOT NULL DEFAULT 0,
	updated    BIGINT NOT NULL
);

-- Play sessions: from sign-in to their end (ended NULL while they run). checked is when the
-- last reality check was answered.
CREATE TABLE rg_sessions (
	id      BIGSERIAL PRIMARY KEY,
	player  TEXT COLLATE "C" NOT NULL,
	started BIGINT NOT NULL,
	checked BIGINT NOT NULL,
	ended   BIGINT,
	reason  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX rg_sessions_player ON rg_sessions (player, id);

-- What a player staked and got back by session ('s:<id>') and UTC day ('d:<date>'), moved
-- only in the commits of the wagers and settlements themselves.
CREATE TABLE rg_tallies (
	player   TEXT COLLATE "C" NOT NULL,
	currency TEXT NOT NULL,
	period   TEXT COLLATE "C" NOT NULL,
	staked   BIGINT NOT NULL DEFAULT 0 CHECK (staked >= 0),
	settled  BIGINT NOT NULL DEFAULT 0 CHECK (settled >= 0),
	returned BIGINT NOT NULL DEFAULT 0 CHECK (returned >= 0),
	PRIMARY KEY (player, currency, period)
);

-- Wagers in play, with the session and day their stake counted in (so their return counts
-- there too); a row leaves when its wager settles.
CREATE TABLE rg_wagers (
	table_id TEXT COLLATE "C" NOT NULL,
	wager    BIGINT NOT NULL,
	player   TEXT COLLATE "C" NOT NULL,
	currency TEXT NOT NULL,
	round    BIGINT NOT NULL,
	session  BIGINT NOT NULL,
	day      TEXT NOT NULL,
	stake    BIGINT NOT NULL CHECK (stake > 0),
	PRIMARY KEY (table_id, wager)
);
CREATE INDEX rg_wagers_player ON rg_wagers (player);

-- Every event of a player's limits and sessions (responsible.Event as JSON in data): their
-- record, the back office's audit trail, and the operator's webhooks (delivery pending until
-- the operator answers). once makes a limit reached one event per limit and period.
CREATE TABLE rg_events (
	seq      BIGSERIAL PRIMARY KEY,
	player   TEXT COLLATE "C" NOT NULL,
	at       BIGINT NOT NULL,
	kind     TEXT NOT NULL,
	data     TEXT NOT NULL,
	once     TEXT UNIQUE,
	delivery TEXT NOT NULL DEFAULT '' CHECK (delivery IN ('', 'pending', 'done')),
	attempts INTEGER NOT NULL DEFAULT 0,
	next_at  BIGINT NOT NULL DEFAULT 0,
	error    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX rg_events_player ON rg_events (player, seq);
CREATE INDEX rg_events_due ON rg_events (next_at) WHERE delivery = 'pending';
