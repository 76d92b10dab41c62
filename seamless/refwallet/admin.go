package refwallet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tablehouse/baccarat/seamless"
)

// Admin calls a running wallet's admin endpoints, signed as the protocol's calls are (and
// believing only answers signed for them): for tests and demo scripts.
type Admin struct {
	BaseURL string
	Secret  []byte
	HTTP    *http.Client // nil: http.DefaultClient
}

// SetPlayer creates a player with a balance, or sets an existing player's balance.
func (a *Admin) SetPlayer(ctx context.Context, p Player) error {
	return a.do(ctx, http.MethodPost, "/admin/players", p, nil)
}

// Report reads every player and every tx.
func (a *Admin) Report(ctx context.Context) (*Report, error) {
	var rep Report
	return &rep, a.do(ctx, http.MethodGet, "/admin/report", nil, &rep)
}

// Faults reads the faults in force.
func (a *Admin) Faults(ctx context.Context) (Faults, error) {
	var f Faults
	return f, a.do(ctx, http.MethodGet, "/admin/faults", nil, &f)
}

// SetFaults changes the faults in force.
func (a *Admin) SetFaults(ctx context.Context, f Faults) error {
	return a.do(ctx, http.MethodPut, "/admin/faults", f, nil)
}

func (a *Admin) do(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		body, _ = json.Marshal(in)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(a.BaseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	key := seamless.DomainWallet.Key(a.Secret)
	sig := seamless.NewStamp(method, path, time.Now()).Sign(req.Header, key, body)
	hc := a.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if !seamless.Verify(key, seamless.AnswerMessage(resp.StatusCode, sig, answer), resp.Header.Get(seamless.SignatureHeader)) {
		return fmt.Errorf("refwallet %s %s: the answer's signature does not match (status %d)", method, path, resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		var e seamless.ErrorAnswer
		_ = json.Unmarshal(answer, &e)
		return &seamless.RefusedError{Status: resp.StatusCode, Code: e.Error, Message: e.Message}
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(answer, out)
}
