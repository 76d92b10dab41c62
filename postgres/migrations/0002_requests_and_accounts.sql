-- Wager request ids, kept so that the same id from the same player places one wager for at
-- least a day on every table and server (journal.Request); written in the commit of the
-- wager itself.
CREATE TABLE wager_requests (
	player     TEXT COLLATE "C" NOT NULL,
	request_id TEXT COLLATE "C" NOT NULL,
	table_id   TEXT NOT NULL,
	digest     TEXT NOT NULL CHECK (length(digest) = 64),
	wager      BYTEA NOT NULL,
	at_ns      BIGINT NOT NULL,
	PRIMARY KEY (player, request_id)
);
CREATE INDEX wager_requests_at ON wager_requests (at_ns);

-- Who signs in (access.Account): role, the tables a dealer or pit account may act on,
-- disabled, and the epoch that revokes earlier tokens.
CREATE TABLE principals (
	id       TEXT COLLATE "C" PRIMARY KEY,
	role     TEXT NOT NULL CHECK (role IN ('player', 'dealer', 'pit', 'admin')),
	name     TEXT NOT NULL,
	tables   TEXT[] NOT NULL DEFAULT '{}',
	disabled BOOLEAN NOT NULL DEFAULT false,
	epoch    BIGINT NOT NULL DEFAULT 0 CHECK (epoch >= 0),
	created  BIGINT NOT NULL
);
