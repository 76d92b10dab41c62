// Package access says who may do what: the accounts of players, dealers, the pit and
// admins, the tables a dealer or pit account may act on, whether an account is disabled,
// and the bearer tokens that name an account. It is pure (the stores in sqlite/ and
// postgres/ keep the accounts) so every server sharing a database decides alike.
//
// A token is signed, so it proves which account it was issued to; the account, read on
// every request, decides whether the token still works: a disabled account is refused at
// once on every server, and revoking an account's tokens moves its epoch past every token
// issued before.
package access

import (
	"context"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
)

// Role is what an account may do.
type Role string

// The roles (web/API.md).
const (
	RolePlayer Role = "player"
	RoleDealer Role = "dealer"
	RolePit    Role = "pit"
	RoleAdmin  Role = "admin"
)

// Check refuses a role that is not one of the four.
func (r Role) Check() error {
	switch r {
	case RolePlayer, RoleDealer, RolePit, RoleAdmin:
		return nil
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "role %q: use player, dealer, pit or admin", r)
}

// MaxTables is how many tables one dealer or pit account may be assigned.
const MaxTables = 256

// MaxNameLen is the longest display name, in bytes.
const MaxNameLen = 64

// Account is one person or system that signs in.
type Account struct {
	ID   string `json:"id"`
	Role Role   `json:"role"`
	Name string `json:"name"`
	// Tables are the tables a dealer or pit account may act on; players and admins have none
	// (players wager at any table, admins act on all).
	Tables   []string  `json:"tables,omitempty"`
	Disabled bool      `json:"disabled,omitempty"`
	Epoch    uint32    `json:"epoch"` // tokens of an earlier epoch are revoked
	Created  time.Time `json:"created"`
	// Currency and Language of a player an operator launched (launch.go): the wallet their
	// balance is read from and the pages' language. Empty: the server's default.
	Currency string `json:"currency,omitempty"`
	Language string `json:"language,omitempty"`
}

// Validate checks an account as an admin gives it.
func (a Account) Validate() error {
	if err := baccarat.CheckID("account id", a.ID); err != nil {
		return err
	}
	if err := a.Role.Check(); err != nil {
		return err
	}
	if len(a.Name) > MaxNameLen || !printable(a.Name) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "name: at most %d bytes of printable text", MaxNameLen)
	}
	if len(a.Tables) > 0 && a.Role != RoleDealer && a.Role != RolePit {
		return baccarat.Errorf(baccarat.CodeBadRequest, "only dealer and pit accounts are assigned tables (a %s has none)", a.Role)
	}
	if len(a.Tables) > MaxTables {
		return baccarat.Errorf(baccarat.CodeBadRequest, "at most %d tables per account", MaxTables)
	}
	for _, t := range a.Tables {
		if err := baccarat.CheckID("table id", t); err != nil {
			return err
		}
	}
	if a.Currency != "" {
		if err := baccarat.CheckMoneyCurrency(a.Currency); err != nil {
			return err
		}
	}
	if a.Language != "" && !IsLanguage(a.Language) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "language %q: want a language tag such as en or zh-CN", a.Language)
	}
	return nil
}

// printable refuses control characters and the bidirectional overrides that make a name
// print as something else.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0xfffd {
			return false
		}
	}
	return true
}

// MayActOn reports whether the account may send dealer or pit commands to a table: an
// admin on every table, a dealer or pit account on the tables assigned to it.
func (a Account) MayActOn(table string) bool {
	switch a.Role {
	case RoleAdmin:
		return true
	case RoleDealer, RolePit:
		return slices.Contains(a.Tables, table)
	}
	return false
}

// Store keeps the accounts. sqlite.DB and postgres.DB implement it and run accesstest.
type Store interface {
	// CreateAccount adds an account; an id that exists is a conflict.
	CreateAccount(ctx context.Context, a Account) error
	// Account reads one (not_found if there is none).
	Account(ctx context.Context, id string) (Account, error)
	// UpdateAccount changes an account under a lock: change edits it, and the result is
	// written unless change returns an error.
	UpdateAccount(ctx context.Context, id string, change func(*Account) error) (Account, error)
	// ListAccounts lists accounts by id, after the given id, at most limit.
	ListAccounts(ctx context.Context, after string, limit int) ([]Account, error)
}

// Ensure returns the account with a's id, creating it as a if there is none. Servers call
// it at start for the accounts they provide (the demo player, the demo dealer): an account
// an admin has since changed (disabled, revoked, other tables) stays as the admin left it.
func Ensure(ctx context.Context, s Store, a Account) (Account, error) {
	got, err := s.Account(ctx, a.ID)
	if baccarat.ErrorCode(err) != baccarat.CodeNotFound {
		return got, err
	}
	if err := s.CreateAccount(ctx, a); err != nil && baccarat.ErrorCode(err) != baccarat.CodeConflict {
		return Account{}, err
	}
	return s.Account(ctx, a.ID)
}
