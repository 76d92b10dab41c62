-- The check that every new ledger entry names an existing account and transaction runs
-- once per statement over the statement's new rows. Written as one condition with OR, the
-- planner could not turn its NOT EXISTS into anti-joins and hashed the whole of
-- ledger_transactions for every commit: a cost that grows with the books (seen: 20,000
-- rows read to check 850 entries). Two anti-joins, with hash and merge joins and
-- sequential scans off inside the function, look each entry up by primary key instead, so
-- a commit costs what it writes whatever the size of the history and the age of the
-- planner's statistics.
CREATE OR REPLACE FUNCTION check_new_entries() RETURNS trigger LANGUAGE plpgsql
	SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM new_entries n WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = n.account_id))
	   OR EXISTS (SELECT 1 FROM new_entries n WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = n.tx_id)) THEN
		RAISE EXCEPTION 'ledger_entries: an entry names a missing account or transaction'
			USING ERRCODE = 'foreign_key_violation';
	END IF;
	RETURN NULL;
END $$;
