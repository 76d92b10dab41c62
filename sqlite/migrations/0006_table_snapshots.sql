-- A table's state between rounds, every so many rounds (table.Snapshot): recovery restores
-- the latest and replays only the records after it. seq is the journal record the snapshot
-- stands at (the table as of that record); a snapshot is never changed.
CREATE TABLE table_snapshots (
	table_id TEXT NOT NULL,
	seq      INTEGER NOT NULL CHECK (seq >= 1),
	data     BLOB NOT NULL,
	PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;
