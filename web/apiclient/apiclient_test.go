package apiclient_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
	"github.com/tablehouse/baccarat/web/apiclient"
)

// TestAPIClientMatchesSpec: the committed client is what the go:generate line makes of
// today's web/openapi.json, so the description and the client never drift apart.
func TestAPIClientMatchesSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs oapi-codegen")
	}
	args := generateLine(t)
	out := filepath.Join(t.TempDir(), "client.gen.go")
	for i := range args {
		if args[i] == "-o" && i+1 < len(args) {
			args[i+1] = out
		}
	}
	cmd := exec.Command(args[0], args[1:]...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, committed) {
		t.Fatal("client.gen.go is not what web/openapi.json generates: run go generate ./web/apiclient and commit the result")
	}
}

// generateLine is the command of generate.go's go:generate line.
func generateLine(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("generate.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "//go:generate "); ok {
			return strings.Fields(line)
		}
	}
	t.Fatal("generate.go has no go:generate line")
	return nil
}

// server is a real server on 127.0.0.1:0 with a temporary database, a dealer-driven Tiger
// table, a player credited with play money and a dealer.
type server struct {
	url    string
	tokens map[string]string
}

func newServer(t *testing.T) *server {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "api.db"))
	if err != nil {
		t.Fatal(err)
	}
	host := live.New(live.Options{Store: db, Owner: "test"})
	if err := host.Open(ctx); err != nil {
		t.Fatal(err)
	}
	spec := live.Spec{ID: "tiger", Name: "Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}}
	if err := host.Create(ctx, spec); err != nil {
		t.Fatal(err)
	}
	issuer := access.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	s := &server{tokens: map[string]string{}}
	for _, a := range []access.Account{{ID: "ann", Role: web.RolePlayer}, {ID: "dealer", Role: web.RoleDealer, Tables: []string{"tiger"}}} {
		a.Created = time.Now().UTC()
		if err := db.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		s.tokens[a.ID] = issuer.Issue(a)
	}
	if err := host.Credit(ctx, "c-ann", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	srv := web.New(web.Options{Host: host, Books: db, Accounts: db, Tokens: issuer})
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Shutdown(ctx)
		host.Close()
		db.Close()
	})
	s.url = srv.URL()
	return s
}

// client is the generated client signed in as who ("" for nobody).
func (s *server) client(t *testing.T, who string) *apiclient.ClientWithResponses {
	t.Helper()
	c, err := apiclient.NewClientWithResponses(s.url, apiclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		if who != "" {
			r.Header.Set("Authorization", "Bearer "+s.tokens[who])
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAPIClientPlacesAWager: the generated client, against a real server, opens betting as
// the dealer, places a wager as the player, reads the statement, and reads a refusal as
// the API's error.
func TestAPIClientPlacesAWager(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	dealer, ann, nobody := s.client(t, "dealer"), s.client(t, "ann"), s.client(t, "")
	for _, cmd := range []apiclient.CommandCmd{"new_shoe", "open"} {
		r, err := dealer.SendCommandWithResponse(ctx, "tiger", apiclient.Command{Cmd: cmd})
		if err != nil || r.JSON200 == nil {
			t.Fatalf("dealer %s: %v %s", cmd, err, body(r))
		}
	}
	req := "w-1"
	placed, err := ann.PlaceWagerWithResponse(ctx, "tiger", apiclient.WagerRequest{Bet: "banker", Stake: 1000, RequestId: &req})
	if err != nil || placed.JSON200 == nil || placed.JSON200.Wager == nil {
		t.Fatalf("wager: %v %s", err, body(placed))
	}
	if w := placed.JSON200.Wager; *placed.JSON200.Balance != 99_000 || *w.Stake != 1000 || *w.Bet != "banker" || *w.Player != "ann" {
		t.Fatalf("placed %+v, balance %d", *w, *placed.JSON200.Balance)
	}
	st, err := ann.GetMyStatementWithResponse(ctx, &apiclient.GetMyStatementParams{})
	if err != nil || st.JSON200 == nil {
		t.Fatalf("statement: %v %s", err, body(st))
	}
	entries := *st.JSON200
	if len(entries) != 2 || entries[0].Amount != 100_000 || entries[1].Amount != -1000 || entries[1].Balance != 99_000 ||
		entries[1].Seq != 2 || entries[1].Table == nil || *entries[1].Table != "tiger" || entries[1].At.IsZero() {
		t.Fatalf("statement %+v, want the credit of 100000 then the wager of −1000", entries)
	}
	me, err := ann.GetMeWithResponse(ctx, nil)
	if err != nil || me.JSON200 == nil || me.JSON200.Balance != 99_000 || me.JSON200.Role != apiclient.MeRolePlayer {
		t.Fatalf("me: %v %s", err, body(me))
	}
	refused, err := nobody.PlaceWagerWithResponse(ctx, "tiger", apiclient.WagerRequest{Bet: "banker", Stake: 1000})
	if err != nil || refused.JSON401 == nil || refused.JSON401.Code != "unauthenticated" || refused.JSON401.Message == "" {
		t.Fatalf("a wager without a token: %v %s", err, body(refused))
	}
}

// body describes an answer for a failure message.
func body(r interface{ StatusCode() int }) string {
	if r == nil || reflect.ValueOf(r).IsNil() {
		return "(no answer)"
	}
	return fmt.Sprintf("status %d, %s", r.StatusCode(), reflect.ValueOf(r).Elem().FieldByName("Body").Bytes())
}
