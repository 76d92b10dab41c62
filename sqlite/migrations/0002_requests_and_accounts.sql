-- Wager request ids, kept so that the same id from the same player places one wager for at
-- least a day on every table (journal.Request); written in the commit of the wager itself.
CREATE TABLE wager_requests (
	player     TEXT NOT NULL,
	request_id TEXT NOT NULL,
	table_id   TEXT NOT NULL,
	digest     TEXT NOT NULL CHECK (length(digest) = 64),
	wager      BLOB NOT NULL,
	at         INTEGER NOT NULL,
	PRIMARY KEY (player, request_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX wager_requests_at ON wager_requests (at);

-- Who signs in (access.Account): role, the tables a dealer or pit account may act on (a
-- JSON array), disabled, and the epoch that revokes earlier tokens.
CREATE TABLE principals (
	id       TEXT PRIMARY KEY,
	role     TEXT NOT NULL CHECK (role IN ('player', 'dealer', 'pit', 'admin')),
	name     TEXT NOT NULL,
	tables   TEXT NOT NULL DEFAULT '[]',
	disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
	epoch    INTEGER NOT NULL DEFAULT 0 CHECK (epoch >= 0),
	created  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
