package main

import (
	"encoding/hex"
	"flag"
	"net/url"
	"os"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/web"
)

// operatorFlags plug a casino operator in: where players' money is kept (--wallet), the
// operator's wallet (--wallet-url, --wallet-secret), and the secret its launches are signed
// under (--operator-secret). Each protocol signs with a key of its own derived from its
// secret (seamless.DomainWallet, seamless.DomainLaunch), so an operator that configures one
// secret for both still has a launch key and a wallet key apart: a wallet call captured on
// the wire is no launch.
type operatorFlags struct {
	Wallet         string // "internal" (default) or "seamless"
	WalletURL      string
	WalletSecret   string // hex
	OperatorSecret string // hex, the launches'; default the wallet secret (the keys stay apart)
	PublicURL      string
	WalletTimeout  time.Duration
	Outbox         live.Outbox // tests make it quick

	walletSecret, launchSecret []byte
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
`

func (o *operatorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&o.Wallet, "wallet", "internal", "where players' money is kept: internal or seamless (the operator's wallet)")
	fs.StringVar(&o.WalletURL, "wallet-url", os.Getenv("BACCARAT_WALLET_URL"), "the operator's seamless wallet base URL")
	fs.StringVar(&o.WalletSecret, "wallet-secret", os.Getenv("BACCARAT_WALLET_SECRET"), "shared secret of the operator's wallet, hex")
	fs.StringVar(&o.OperatorSecret, "operator-secret", os.Getenv("BACCARAT_OPERATOR_SECRET"), "secret the operator's launches are signed under, hex (default: --wallet-secret; the launch key is derived apart from the wallet's)")
	fs.StringVar(&o.PublicURL, "public-url", "", "base URL of launch links (default: the address a launch came to)")
	fs.DurationVar(&o.WalletTimeout, "wallet-timeout", seamless.DefaultTimeout, "a call to the operator's wallet gives up after this long (it is rolled back or retried)")
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
