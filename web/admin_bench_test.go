package web_test

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice/backofficetest"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/web"
)

// BenchmarkReportYearOverHTTP: GET /api/admin/reports over a year of 26,280,000 rounds at 50
// tables (backofficetest.Year, generated into the server's database), end to end: the
// summaries' queries, the theory of the bets placed from the odds engine, and the JSON. Run
// with:
//
//	go test -run '^$' -bench ReportYearOverHTTP -benchtime 10x ./web/
func BenchmarkReportYearOverHTTP(b *testing.B) {
	f := newBenchFixture(b)
	y := backofficetest.Year{Tables: 50, Days: 365, RoundsADay: 1440, From: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		Currencies: []string{"EUR", "JPY", "XXX"}}
	if err := y.Generate(context.Background(), f.db); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, query string }{
		{"by table", "group=table"}, {"by game", "group=game"}, {"by day", "group=day&currency=EUR"},
		{"by day, csv", "group=day&currency=EUR&format=csv"}, {"by day and table", "group=day,table"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				req, _ := http.NewRequest("GET", f.srv.URL()+"/api/admin/reports?from=2025-01-01&to=2025-12-31&"+c.query, nil)
				req.Header.Set("Authorization", "Bearer "+f.tokens["admin"])
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("%d %s", resp.StatusCode, body)
				}
				n = len(body)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// benchFixture is a server on a temporary database with an admin's token.
type benchFixture struct {
	srv    *web.Server
	db     *sqlite.DB
	tokens map[string]string
}

func newBenchFixture(b *testing.B) *benchFixture {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	host := live.New(live.Options{Store: db, Owner: "bench"})
	if err := host.Open(ctx); err != nil {
		b.Fatal(err)
	}
	tokens := access.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	admin := access.Account{ID: "admin", Role: web.RoleAdmin, Created: time.Now().UTC()}
	if err := db.CreateAccount(ctx, admin); err != nil {
		b.Fatal(err)
	}
	srv := web.New(web.Options{Host: host, Books: db, Accounts: db, Tokens: tokens, RatePerToken: 1e6, Burst: 1e6, RatePerAddress: 1e6, AddressBurst: 1e6})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = srv.Shutdown(ctx)
		host.Close()
		db.Close()
	})
	return &benchFixture{srv: srv, db: db, tokens: map[string]string{"admin": tokens.Issue(admin)}}
}
