-- A lease's epoch: raised each time a server takes a table it did not hold, and checked inside
-- every commit (journal.Fence), so a server that lost its lease can never write again. The
-- row of a released lease is kept (owner ''), so the epoch only ever grows.
ALTER TABLE leases ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
UPDATE leases SET epoch = 1;
