package main

import (
	"crypto/tls"
	"flag"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/cluster"
)

// clusterFlags are how a server joins its cluster's NATS server: the credentials NATS
// operators use (never logged, and none of them needs to be on the command line, where ps
// shows it), TLS, and the subject prefix. Who may move money is not decided by them: every
// message is sealed with the shared --secret (package cluster).
type clusterFlags struct {
	Prefix       string
	User         string
	PasswordFile string // else BACCARAT_NATS_PASSWORD
	TokenFile    string // else BACCARAT_NATS_TOKEN
	NKeyFile     string
	CredsFile    string
	TLSCert      string
	TLSKey       string
	TLSCA        string
	SecretFile   string // the shared --secret, from a file
	// Lease is how long a table's lease lasts without renewal: how soon a survivor takes
	// over the tables of a server that died or was cut off (default 15 s).
	Lease time.Duration
	// Drain bounds a stop (SIGTERM, Ctrl-C): draining, handing the tables over, closing
	// the streams (default 10 s).
	Drain time.Duration
}

func (c *clusterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.Prefix, "nats-prefix", "baccarat", "subject prefix of the cluster on the NATS server: clusters sharing one NATS server each take their own")
	fs.StringVar(&c.User, "nats-user", os.Getenv("BACCARAT_NATS_USER"), "NATS user name (its password from BACCARAT_NATS_PASSWORD or --nats-password-file)")
	fs.StringVar(&c.PasswordFile, "nats-password-file", "", "file holding the NATS password")
	fs.StringVar(&c.TokenFile, "nats-token-file", "", "file holding a NATS token (or BACCARAT_NATS_TOKEN)")
	fs.StringVar(&c.NKeyFile, "nats-nkey", "", "file holding the server's NATS nkey seed")
	fs.StringVar(&c.CredsFile, "nats-creds", "", "NATS .creds file (a user JWT and its nkey seed)")
	fs.StringVar(&c.TLSCert, "nats-tls-cert", "", "client certificate for NATS over TLS (with --nats-tls-key)")
	fs.StringVar(&c.TLSKey, "nats-tls-key", "", "the client certificate's key")
	fs.StringVar(&c.TLSCA, "nats-tls-ca", "", "CA bundle that signs the NATS server's certificate")
	fs.StringVar(&c.SecretFile, "secret-file", "", "file holding the hex --secret (every server of a cluster shares it)")
	fs.DurationVar(&c.Drain, "drain", 10*time.Second, "the longest a stop (SIGTERM, Ctrl-C) takes: the server drains, hands its tables over and closes its streams (1s to 5m)")
	fs.DurationVar(&c.Lease, "lease", 15*time.Second, "how long a table's lease lasts without renewal: a survivor takes over a dead server's tables within it (1s to 5m)")
}

// options are the NATS options the flags ask for.
func (c *clusterFlags) options() ([]nats.Option, error) {
	var opts []nats.Option
	read := func(flag, path string) (string, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", baccarat.Errorf(baccarat.CodeBadRequest, "--%s %s: %v", flag, path, err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	password := os.Getenv("BACCARAT_NATS_PASSWORD")
	if c.PasswordFile != "" {
		p, err := read("nats-password-file", c.PasswordFile)
		if err != nil {
			return nil, err
		}
		password = p
	}
	if c.User != "" {
		opts = append(opts, nats.UserInfo(c.User, password))
	}
	token := os.Getenv("BACCARAT_NATS_TOKEN")
	if c.TokenFile != "" {
		tk, err := read("nats-token-file", c.TokenFile)
		if err != nil {
			return nil, err
		}
		token = tk
	}
	if token != "" {
		opts = append(opts, nats.Token(token))
	}
	if c.NKeyFile != "" {
		o, err := nats.NkeyOptionFromSeed(c.NKeyFile)
		if err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--nats-nkey %s: %v", c.NKeyFile, err)
		}
		opts = append(opts, o)
	}
	if c.CredsFile != "" {
		if _, err := os.Stat(c.CredsFile); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--nats-creds %s: %v", c.CredsFile, err)
		}
		opts = append(opts, nats.UserCredentials(c.CredsFile))
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--nats-tls-cert and --nats-tls-key go together")
	}
	if c.TLSCert != "" {
		if _, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--nats-tls-cert/--nats-tls-key: %v", err)
		}
		opts = append(opts, nats.ClientCert(c.TLSCert, c.TLSKey))
	}
	if c.TLSCA != "" {
		opts = append(opts, nats.RootCAs(c.TLSCA))
	}
	return opts, nil
}

// checkLease refuses a lease out of its range: shorter than a second, a busy server's
// renewals (a third of it apart) could not keep up; longer than five minutes, a dead
// server's tables would wait that long.
func (c *clusterFlags) checkLease() error {
	if c.Lease != 0 && (c.Lease < time.Second || c.Lease > 5*time.Minute) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--lease %s: give 1s to 5m", c.Lease)
	}
	if c.Drain != 0 && (c.Drain < time.Second || c.Drain > 5*time.Minute) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--drain %s: give 1s to 5m", c.Drain)
	}
	return nil
}

// joinCluster connects the host to its cluster: --nats with the shared secret.
func (s *server) joinCluster(secret []byte, accounts cluster.AccountCache) error {
	if !isPostgres(s.DB) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--nats joins servers that share one database: give --db postgres://…")
	}
	if !s.secretGiven() {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--nats needs the cluster's shared secret (--secret, BACCARAT_SECRET or --secret-file): every message between the servers is sealed with it")
	}
	if strings.Contains(s.NATS, "@") {
		s.Log.Warn("the --nats URL holds credentials, which ps shows: give them with --nats-user and BACCARAT_NATS_PASSWORD, a token file, an nkey or a .creds file instead")
	}
	opts, err := s.Cluster.options()
	if err != nil {
		return err
	}
	node, err := cluster.Connect(s.host, cluster.Options{URL: s.NATS, Prefix: s.Cluster.Prefix, Secret: secret, NATS: opts,
		Leases: s.store, Logger: s.Log, Accounts: accounts})
	if err != nil {
		return err
	}
	s.node = node
	s.Log.Info("joined the cluster", "nats", cluster.Redact(s.NATS), "prefix", s.Cluster.Prefix, "server", s.Owner)
	return nil
}
