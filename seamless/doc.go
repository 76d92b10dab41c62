// Package seamless is the seamless-wallet protocol: the game server keeps no money of its
// own and calls the operator's wallet for every bet and every win. Both sides are here: the
// messages and their checks, the signature, and a Client for the game server's side; the
// subpackage refwallet is a small, real operator wallet for demos and tests.
//
// # The calls
//
// Each call is a JSON POST to the operator's base URL, signed (see Signatures below).
// Amounts are int64 minor units.
//
//	/balance   {"player","currency"}                                          → {"balance"}
//	/debit     {"tx","player","currency","amount","table","round","wager"}    → {"balance"}
//	/credit    {"tx",…,"wager","debit_tx"}                                    → {"balance"}
//	/rollback  {"tx",…,"wager","debit_tx"}                                    → {"balance"}
//
// A refusal is a 4xx status with {"error":CODE,"message":…}; insufficient funds adds the
// player's "balance": {"error":"insufficient_funds","balance":250}. Codes and their statuses
// are in one table (Code.Status).
//
// # The rules both sides keep
//
//   - A tx id is unique and stable: a retried call carries the same id and the same body,
//     and the operator answers a repeated id with its first answer, byte for byte, status
//     included. The same id with a different body is refused (tx_conflict).
//   - Every debit is closed at most once: by one credit (the wager's return; 0 for a lost
//     wager when the operator wants its rounds closed) or by one rollback (the stake back).
//     A credit or rollback names its debit in debit_tx, for the same player, currency,
//     table, round and wager; a rollback returns exactly the debit's amount.
//   - Rollback before debit: a rollback naming a debit the operator never saw is answered
//     OK, moves nothing, and is recorded, so that the debit, if it arrives late, is refused
//     (rolled_back). The same goes for a debit that was refused: rolling it back is OK and
//     moves nothing. So "roll back whatever you are unsure of" is always safe.
//   - A balance never goes below zero.
//
// # What the game server does with the answers
//
// The Client sends each call once; it never retries on its own (net/http itself resends a
// POST only when not one byte of it was written). Every error it returns is one of three
// kinds, and each tells the caller what it knows:
//
//   - *InsufficientFundsError: the debit was refused for want of money; nothing moved.
//   - *RefusedError: the operator refused the call (or the client did, before sending);
//     nothing moved.
//   - *OutcomeUnknownError: no answer that can be trusted (a timeout, a dropped connection,
//     a 5xx, an unreadable or wrongly signed answer). The call may or may not have been
//     applied. A debit whose outcome is unknown must be rolled back (same debit_tx, a new
//     rollback tx id, retried with that id until answered); a credit or rollback whose
//     outcome is unknown is retried with the same tx id until answered.
//
// An error from a context that was already done before anything was sent is returned as
// is (context.Canceled or context.DeadlineExceeded): nothing was sent.
//
// # Signatures
//
// Both sides hold the shared secret; neither signs with it directly. Each protocol has a
// key of its own derived from the secret configured for it (Domain.Key), so that a message
// signed for one never verifies for another, even where an operator configured one secret
// for both: the wallet's key is HMAC-SHA256(secret, "baccarat wallet v1"), the operator's
// launches' (package web) HMAC-SHA256(secret, "baccarat launch v1").
//
// A call carries three headers: X-Timestamp (Unix seconds when it was signed), X-Nonce (16
// to 64 of A–Z a–z 0–9 _ -, new for every request) and
//
//	X-Signature: hex(HMAC-SHA256(wallet key, "POST\n/debit\n<X-Timestamp>\n<X-Nonce>\n<raw body>"))
//
// the path being the call's as named here (/debit), without the base URL's own path.
// The operator refuses (401 bad_signature, recording nothing) a call whose signature does
// not match, or whose timestamp is more than MaxSkew from its clock: a call signed for one
// path or long ago is no call. Repeats within that window need no nonce store: a tx id is
// answered once.
//
// Every answer is signed by the operator, a refusal or a 5xx as much as a 200:
//
//	X-Signature: hex(HMAC-SHA256(wallet key, "<status>\n<the request's X-Signature>\n<raw answer body>"))
//
// Naming the request's signature binds the answer to the call it answers, so an answer
// replayed from another call does not verify. The Client believes no other answer: an
// unsigned or wrongly signed one is no answer (OutcomeUnknownError), so a debit so answered
// is rolled back and its wager refused. refwallet signs every answer.
package seamless
