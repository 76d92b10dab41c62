package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/seamless/refwallet"
)

func init() {
	register(&command{
		name:    "operator-wallet",
		summary: "a reference operator wallet for the seamless-wallet protocol, with fault switches (demos, tests)",
		usage: `Usage: baccarat operator-wallet --secret HEX [--addr HOST:PORT] [--db FILE] [--player ID:CUR:BALANCE ...]
                                [--slow DURATION --slow-p P] [--fail-p P] [--lose-p P] [--fault-seed N]

Serves the operator's side of the seamless-wallet protocol: the game server keeps no money
and calls the operator's wallet for every bet and win. Each call is a JSON POST; amounts are
integer minor units. It is signed under the wallet key, KEY = HMAC-SHA256(secret, "baccarat
wallet v1") (baccarat serve derives the same key from its --wallet-secret), with three headers:
  X-Timestamp  Unix seconds when it was signed (refused more than 2 minutes off this clock)
  X-Nonce      16 to 64 of A-Z a-z 0-9 _ -, new for each request
  X-Signature  hex(HMAC-SHA256(KEY, "POST\n/debit\n<X-Timestamp>\n<X-Nonce>\n<raw body>"))
Every answer is signed for its call:
  X-Signature  hex(HMAC-SHA256(KEY, "<status>\n<the request's X-Signature>\n<raw answer>"))

  POST /balance   {"player","currency"}                                         → {"balance"}
  POST /debit     {"tx","player","currency","amount","table","round","wager"}   → {"balance"}
  POST /credit    {"tx",...,"wager","debit_tx"}                                  → {"balance"}
  POST /rollback  {"tx",...,"wager","debit_tx"}                                  → {"balance"}

A refusal is a 4xx {"error":CODE,"message"}: 402 insufficient_funds (with "balance"),
401 bad_signature, 404 unknown_player or unknown_debit, 409 tx_conflict, rolled_back,
debit_closed or debit_mismatch, 400 bad_request, 413 too_large.

The rules it keeps, in a SQLite file (WAL, synchronous=FULL: an answer is on disk first):
  - every tx is recorded with its first answer; a repeated tx id gets that answer byte for
    byte; the same id with another body is refused (tx_conflict)
  - a credit or rollback names an applied debit in debit_tx (same player, currency, table,
    round, wager; a rollback its amount too) and closes it; a debit is closed once
  - rollback before debit: a rollback of a debit never seen is answered OK and recorded,
    and the debit, if it arrives late, is refused (rolled_back); rolling back a refused
    debit is OK and moves nothing
  - balances never go below zero; a call with a wrong or stale signature gets 401 and leaves
    no trace
  - every answer is signed, for the call it answers

Admin endpoints, signed the same way (a GET signs its empty body and its path):
  POST /admin/players {"player","currency","balance"}   create a player or set a balance
  GET  /admin/report                                     every balance and every tx, so a test
                                                         can check opening + Σ moved = balance
  GET  /admin/faults, PUT /admin/faults {"slow_ms","slow_p","fail_p","lose_p"}

Fault switches, each a probability per call (0 to 1), for tests of the game server's side:
  --slow, --slow-p  hold a call this long before taking it: a client with a shorter timeout
                    gives up, and the call is taken later (a late debit)
  --fail-p          answer 500 without taking the call
  --lose-p          take the call, then drop the connection without an answer
Duplicate deliveries need no switch: a repeated tx id gets its first answer.

  --secret      the shared secret in hex, at least 16 bytes (32 hex digits); or set
                BACCARAT_WALLET_SECRET and leave the flag out, to keep it out of 'ps'
  --player      create a player unless it exists: ann:EUR:100000 (minor units); repeat it

  baccarat operator-wallet --secret $(openssl rand -hex 32) --player ann:EUR:100000
  baccarat operator-wallet --secret "$S" --db /tmp/w.db --slow 3s --slow-p 0.1 --lose-p 0.05
`,
		run: runOperatorWallet,
	})
}

// playerFlags collects repeated --player ID:CUR:BALANCE flags.
type playerFlags []refwallet.Player

func (p *playerFlags) String() string { return "" }

func (p *playerFlags) Set(s string) error {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return fmt.Errorf("%q: want ID:CURRENCY:BALANCE, as ann:EUR:100000", s)
	}
	b, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return fmt.Errorf("%q: the balance is a whole number of minor units", s)
	}
	pl := refwallet.Player{Player: parts[0], Currency: parts[1], Balance: baccarat.Money(b)}
	if err := pl.Check(); err != nil {
		return fmt.Errorf("%q: %s", s, refusal(err))
	}
	*p = append(*p, pl)
	return nil
}

// refusal is a seamless refusal's message alone, for people.
func refusal(err error) string {
	var re *seamless.RefusedError
	if errors.As(err, &re) {
		return re.Message
	}
	return err.Error()
}

type operatorWalletOpts struct {
	addr, db, secret string
	players          playerFlags
	slow             time.Duration
	faults           refwallet.Faults
	seed             uint64
}

func runOperatorWallet(ctx context.Context, e *env, args []string) int {
	c := commands["operator-wallet"]
	fs := newFlags(e, c)
	var o operatorWalletOpts
	fs.StringVar(&o.addr, "addr", "127.0.0.1:9090", "address to listen on (port 0 picks one)")
	fs.StringVar(&o.db, "db", "wallet.db", "the wallet's SQLite file")
	fs.StringVar(&o.secret, "secret", "", "shared secret, hex (default $BACCARAT_WALLET_SECRET)")
	fs.Var(&o.players, "player", "create a player unless it exists: ID:CURRENCY:BALANCE (repeatable)")
	fs.DurationVar(&o.slow, "slow", 0, "how long a slow call is held")
	fs.Float64Var(&o.faults.SlowP, "slow-p", 0, "probability a call is held --slow")
	fs.Float64Var(&o.faults.FailP, "fail-p", 0, "probability a call is answered 500 and not taken")
	fs.Float64Var(&o.faults.LoseP, "lose-p", 0, "probability a call is taken and its answer dropped")
	fs.Uint64Var(&o.seed, "fault-seed", 1, "seed of the fault decisions")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	secret, err := checkOperatorWalletFlags(&o)
	if err != nil {
		return usageError(e, c.name, err)
	}
	if err := serveOperatorWallet(ctx, e, &o, secret); err != nil {
		return fail(e, c.name, err)
	}
	return 0
}

// checkOperatorWalletFlags refuses a missing or short secret and faults out of range; it
// returns the secret's bytes.
func checkOperatorWalletFlags(o *operatorWalletOpts) ([]byte, error) {
	if o.secret == "" {
		o.secret = os.Getenv("BACCARAT_WALLET_SECRET")
	}
	if o.secret == "" {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--secret is required: the shared secret in hex, at least %d bytes (openssl rand -hex 32)", seamless.MinSecret)
	}
	secret, err := hex.DecodeString(o.secret)
	if err != nil {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--secret is not hex: write the secret's bytes as hex digits (openssl rand -hex 32)")
	}
	if len(secret) < seamless.MinSecret {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--secret is %d bytes: use at least %d (%d hex digits)", len(secret), seamless.MinSecret, 2*seamless.MinSecret)
	}
	if o.slow < 0 || o.slow > refwallet.MaxSlow {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--slow %s: want 0 to %s", o.slow, refwallet.MaxSlow)
	}
	if o.slow%time.Millisecond != 0 {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--slow %s: give whole milliseconds", o.slow)
	}
	o.faults.SlowMS = o.slow.Milliseconds()
	if err := o.faults.Check(); err != nil {
		msg := strings.NewReplacer("slow_p", "--slow-p", "fail_p", "--fail-p", "lose_p", "--lose-p").Replace(refusal(err))
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "%s", msg)
	}
	if o.faults.SlowP > 0 && o.slow == 0 {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--slow-p without --slow: say how long a slow call is held (--slow 2s)")
	}
	return secret, nil
}

// serveOperatorWallet binds the port, opens the database, creates the --player players
// and serves until ctx is done.
func serveOperatorWallet(ctx context.Context, e *env, o *operatorWalletOpts, secret []byte) error {
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	store, err := refwallet.Open(ctx, o.db)
	if err != nil {
		return err
	}
	defer store.Close()
	for _, p := range o.players {
		created, err := store.AddPlayer(ctx, p)
		if err != nil {
			return err
		}
		if !created {
			fmt.Fprintf(e.stdout, "player %s %s exists: its balance is kept\n", p.Player, p.Currency)
		}
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	wallet, err := refwallet.New(store, refwallet.Options{Secret: secret, Faults: o.faults, Source: refwallet.NewSource(o.seed), Logger: log})
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: wallet, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	fmt.Fprintf(e.stdout, "operator wallet at http://%s (database %s)\n", ln.Addr(), o.db)
	fmt.Fprintf(e.stdout, "  faults: slow %s p=%g, fail p=%g, lose p=%g (PUT /admin/faults changes them)\nCtrl-C stops.\n",
		o.slow, o.faults.SlowP, o.faults.FailP, o.faults.LoseP)
	select {
	case <-ctx.Done():
	case err := <-done:
		return err
	}
	wallet.Close() // held calls answer now
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}
