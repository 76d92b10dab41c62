package webhook_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/webhook"
)

// An operator's receiver: it verifies each webhook (seamless.VerifyWebhook, under the
// operator secret it gave the platform), does each event id once, and answers 2xx for
// every webhook it has, a repeat included, since a webhook not answered 2xx comes again.
func Example_receiver() {
	operatorSecret := []byte("0123456789abcdef0123456789abcdef")
	done := map[int64]bool{} // a real receiver keeps them in its database
	receiver := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := seamless.VerifyWebhook(w, r, operatorSecret, time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		var b webhook.Body
		if err := json.Unmarshal(body, &b); err != nil {
			http.Error(w, "not an event", http.StatusBadRequest)
			return
		}
		if !done[b.ID] {
			done[b.ID] = true
			fmt.Println("event", b.ID, b.Kind, b.Player, b.Exclusion.Kind, "until", b.Exclusion.Until.Format(time.DateOnly))
		}
		w.WriteHeader(http.StatusNoContent)
	})

	// What the platform sends of a self-exclusion: the same signed body, twice (at least
	// once), then once with the body changed on its way.
	until := time.Date(2027, 11, 28, 0, 0, 0, 0, time.UTC)
	body, _ := webhook.Encode(responsible.Event{Seq: 42, Player: "p-1001", At: until.AddDate(-1, 0, 0), Kind: responsible.EvExcluded,
		By: "p-1001", Exclusion: &responsible.Exclusion{Kind: responsible.SelfExclusion, Until: until}})
	send := func(body []byte, signed []byte) int {
		req := httptest.NewRequest(http.MethodPost, "https://operator.example/hooks/baccarat", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		seamless.SignWebhook(req, operatorSecret, signed, time.Now())
		rec := httptest.NewRecorder()
		receiver.ServeHTTP(rec, req)
		return rec.Code
	}
	fmt.Println(send(body, body))
	fmt.Println(send(body, body))
	fmt.Println(send(bytes.Replace(body, []byte("p-1001"), []byte("p-2002"), 1), body))
	// Output:
	// event 42 excluded p-1001 self_exclusion until 2027-11-28
	// 204
	// 204
	// 401
}
