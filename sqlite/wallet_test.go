package sqlite_test

import (
	"testing"

	"github.com/tablehouse/baccarat/journal/journaltest"
)

func TestWalletCallsConformance(t *testing.T) {
	journaltest.RunWalletCalls(t, func(t *testing.T) journaltest.WalletStore { return open(t) })
}
