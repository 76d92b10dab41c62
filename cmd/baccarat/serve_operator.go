package main

import (
	"context"
	"encoding/hex"
	"flag"
	"log/slog"
	"net/url"
	"os"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/web"
	"github.com/tablehouse/baccarat/webhook"
)

// operatorFlags plug a casino operator in: where players' money is kept (--wallet), the
// operator's wallet (--wallet-url, --wallet-secret), the secret its launches are signed
// under (--operator-secret), and where it hears of players' limits (--operator-webhook,
// signed under the launches' secret). Each protocol signs with a key of its own derived
// from its secret (seamless.DomainWallet, DomainLaunch, DomainWebhook), so an operator that
// configures one secret for all still has keys apart: a wallet call captured on the wire is
// no launch, and a webhook neither.
type operatorFlags struct {
	Wallet         string // "internal" (default) or "seamless"
	WalletURL      string
	WalletSecret   string // hex
	OperatorSecret string // hex, the launches'; default the wallet secret (the keys stay apart)
	PublicURL      string
	WalletTimeout  time.Duration
	Outbox         live.Outbox // tests make it quick
	Webhook        string      // the operator's webhook receiver, http(s); "": none

	walletSecret, launchSecret []byte
	webhookStop                func() // ends the webhook Deliverer and waits for it; nil: none runs
}

const operatorUsage = `
Operators (README "Operators: seamless wallet, launch, currencies"):
  --wallet internal     players' money in the platform's own books (the default)
  --wallet seamless --wallet-url URL --wallet-secret HEX
                        the operator's wallet keeps the money: every stake is debited there
                        before the table takes the wager, and every return credited (0 for a
                        lost wager) or rolled back (voids, withdrawals) from an outbox written
                        with the settlement and delivered until answered. Tables in a real
                        currency are seamless; play money (XXX) stays internal. Calls are
                        signed under HMAC-SHA256(wallet secret, "baccarat wallet v1") over
                        method, path, X-Timestamp, X-Nonce and body; the operator signs every
                        answer for its call, and an answer not so signed is no answer (a debit
                        is rolled back, its wager refused 503 wallet_unavailable)
  --operator-secret HEX the secret the operator's launches (POST /api/operator/launch) are
                        signed under, with the key HMAC-SHA256(secret, "baccarat launch v1")
                        over method, path, X-Timestamp, X-Nonce and body: taken once, within
                        2 minutes of this server's clock (default: --wallet-secret, the keys
                        still apart; or BACCARAT_OPERATOR_SECRET); without one, launches are
                        refused
  --public-url URL      the base of launch URLs (default: the address the launch came to)
  --operator-webhook URL
                        where the operator hears, within seconds, that a player reached a
                        limit (limit_reached) or excluded themselves (excluded): a JSON POST of
                        the event with its "id", signed as the launches are with the key
                        HMAC-SHA256(operator secret, "baccarat webhook v1") over method, the
                        URL's path, X-Timestamp, X-Nonce and body (seamless.VerifyWebhook
                        checks one). A 2xx answer delivers it; anything else, or no answer in
                        10 s, is tried again after 1 s, doubling to 5 minutes, until answered.
                        At least once: the same id may come again (a lost answer, every server
                        of a cluster sending), so do each id once and answer 2xx to repeats.
                        Needs an operator secret; the URL may be given as
                        BACCARAT_OPERATOR_WEBHOOK
`

func (o *operatorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.Wallet, "wallet", "internal", "where players' money is kept: internal or seamless (the operator's wallet)")
	fs.StringVar(&o.WalletURL, "wallet-url", os.Getenv("BACCARAT_WALLET_URL"), "the operator's seamless wallet base URL")
	fs.StringVar(&o.WalletSecret, "wallet-secret", os.Getenv("BACCARAT_WALLET_SECRET"), "shared secret of the operator's wallet, hex")
	fs.StringVar(&o.OperatorSecret, "operator-secret", os.Getenv("BACCARAT_OPERATOR_SECRET"), "secret the operator's launches are signed under, hex (default: --wallet-secret; the launch key is derived apart from the wallet's)")
	fs.StringVar(&o.PublicURL, "public-url", "", "base URL of launch links (default: the address a launch came to)")
	fs.DurationVar(&o.WalletTimeout, "wallet-timeout", seamless.DefaultTimeout, "a call to the operator's wallet gives up after this long (it is rolled back or retried)")
	fs.StringVar(&o.Webhook, "operator-webhook", os.Getenv("BACCARAT_OPERATOR_WEBHOOK"), "the operator's http(s) receiver of limits reached and exclusions: signed JSON POSTs, sent at least once, each with an id to do once (see above)")
}

// check refuses flags that do not make a deployment, before anything is opened.
func (o *operatorFlags) check() error {
	hexSecret := func(flag, s string) ([]byte, error) {
		if s == "" {
			return nil, nil
		}
		b, err := hex.DecodeString(s)
		if err != nil || len(b) < seamless.MinSecret {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "%s: the shared secret in hex, at least %d bytes (%d hex digits)", flag, seamless.MinSecret, 2*seamless.MinSecret)
		}
		return b, nil
	}
	var err error
	if o.walletSecret, err = hexSecret("--wallet-secret", o.WalletSecret); err != nil {
		return err
	}
	if o.launchSecret, err = hexSecret("--operator-secret", o.OperatorSecret); err != nil {
		return err
	}
	if o.launchSecret == nil {
		o.launchSecret = o.walletSecret
	}
	if o.Webhook != "" {
		if err := webhook.CheckURL(o.Webhook); err != nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "--operator-webhook %v", err)
		}
		if o.launchSecret == nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "--operator-webhook needs the operator secret its webhooks are signed under: --operator-secret HEX (or BACCARAT_OPERATOR_SECRET, or --wallet-secret)")
		}
	}
	if o.PublicURL != "" {
		if u, err := url.Parse(o.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return baccarat.Errorf(baccarat.CodeBadRequest, "--public-url %q: want http(s)://host", o.PublicURL)
		}
	}
	switch o.Wallet {
	case "", live.WalletInternal:
		return nil
	case live.WalletSeamless:
	default:
		return baccarat.Errorf(baccarat.CodeBadRequest, "--wallet %q: internal or seamless", o.Wallet)
	}
	if u, err := url.Parse(o.WalletURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--wallet seamless needs --wallet-url http(s)://…, the operator's wallet")
	}
	if o.walletSecret == nil {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--wallet seamless needs --wallet-secret HEX (or BACCARAT_WALLET_SECRET)")
	}
	return nil
}

// operator is the operator's wallet client, nil for the internal wallet.
func (o *operatorFlags) operator() live.Operator {
	if o.Wallet != live.WalletSeamless {
		return nil
	}
	return &seamless.Client{BaseURL: o.WalletURL, Secret: o.walletSecret, Timeout: o.WalletTimeout}
}

// web is the launch side of the operator; store records the launch codes used.
func (o *operatorFlags) web(store any) web.OperatorOptions {
	codes, _ := store.(access.LaunchCodes)
	return web.OperatorOptions{Secret: o.launchSecret, PublicURL: o.PublicURL, Codes: codes}
}

// startWebhook sends the operator the events it hears of (package webhook) until
// stopWebhook, when --operator-webhook is set and the store keeps limits (store non-nil).
// Every server of a cluster runs one: an event may go twice, never not at all.
func (o *operatorFlags) startWebhook(store responsible.Store, log *slog.Logger) {
	if o.Webhook == "" || o.webhookStop != nil {
		return
	}
	if store == nil {
		log.Warn("--operator-webhook: the store keeps no players' limits, so there is nothing to send")
		return
	}
	d := &webhook.Deliverer{Store: store, URL: o.Webhook, Secret: o.launchSecret, Logger: log}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := d.Run(ctx); err != nil {
			log.Error("--operator-webhook: no webhooks are sent", "err", err)
		}
	}()
	o.webhookStop = func() { cancel(); <-done }
	shown := o.Webhook
	if u, err := url.Parse(o.Webhook); err == nil {
		shown = u.Redacted()
	}
	log.Info("operator webhooks on: limits reached and exclusions are sent", "url", shown)
}

// stopWebhook stops the webhooks, if they run; what is pending stays so, for the next start
// or another server.
func (o *operatorFlags) stopWebhook() {
	if o.webhookStop != nil {
		o.webhookStop()
		o.webhookStop = nil
	}
}
