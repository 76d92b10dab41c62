-- A table's state between rounds, every so many rounds (table.Snapshot): recovery restores
-- the latest and replays only the records after it. seq is the journal record the snapshot
-- stands at (the table as of that record); a snapshot is never changed.
CREATE TABLE table_snapshots (
	table_id TEXT COLLATE "C" NOT NULL,
	seq      BIGINT NOT NULL CHECK (seq >= 1),
	data     BYTEA NOT NULL,
	PRIMARY KEY (table_id, seq)
);
