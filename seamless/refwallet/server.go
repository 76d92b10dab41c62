// Package refwallet is a reference operator wallet: a small, real implementation of the
// operator's side of the seamless protocol (package seamless) on SQLite, for demos and for
// tests of the game server's side. `baccarat operator-wallet` serves it.
//
// It keeps every rule of the protocol: each tx is recorded with its first answer and a
// repeat gets that answer byte for byte; a repeat with another body is refused; a credit
// or rollback names a known debit and closes it, once; a rollback of a debit never seen is
// answered OK and recorded, so the debit, arriving late, is refused ("rollback before
// debit"); balances never go below zero; every call is signed (package seamless,
// Signatures: the wallet's key derived from the secret, over the method, path, timestamp,
// nonce and body), and a call with a wrong signature, or a timestamp more than
// seamless.MaxSkew off the wallet's clock, is answered 401 and leaves no trace. It signs
// every answer, for the call it answers.
//
// Beside the four calls, signed like them (a GET signs its empty body):
//
//	POST /admin/players  {"player","currency","balance"}  create a player, or set a balance
//	GET  /admin/report                                    every player and every tx (Report)
//	GET  /admin/faults, PUT /admin/faults {"slow_ms","slow_p","fail_p","lose_p"}  (Faults)
//
// A GET signs its empty body, its path and a timestamp: anyone who has seen one can read
// the report again for seamless.MaxSkew (the wallet keeps no nonces); this wallet is for
// demos and tests, not for the internet.
package refwallet

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablehouse/baccarat/seamless"
)

// Options configure a Server.
type Options struct {
	Secret []byte // the shared secret, at least seamless.MinSecret bytes
	Faults Faults // the faults in force at the start
	Source Source // fault decisions; nil: NewSource(1)
	Logger *slog.Logger
}

// Server is the wallet's HTTP side.
type Server struct {
	store  *Store
	secret []byte
	faults switches
	log    *slog.Logger
	stop   chan struct{}
	once   sync.Once
	mux    *http.ServeMux
	calls  atomic.Int64 // protocol calls in flight, held ones included
}

// New returns the wallet's handler over store.
func New(store *Store, opt Options) (*Server, error) {
	if len(opt.Secret) < seamless.MinSecret {
		return nil, seamless.Refuse(seamless.CodeBadRequest, "the secret is %d bytes: use at least %d", len(opt.Secret), seamless.MinSecret)
	}
	if err := opt.Faults.Check(); err != nil {
		return nil, err
	}
	if opt.Source == nil {
		opt.Source = NewSource(1)
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{store: store, secret: opt.Secret, log: opt.Logger, stop: make(chan struct{})}
	s.faults.f, s.faults.rng = opt.Faults, opt.Source
	s.mux = s.routes()
	return s, nil
}

// routes is every route, in one table.
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("POST "+seamless.PathBalance, s.signed(s.handleBalance))
	m.HandleFunc("POST "+seamless.PathDebit, s.signed(s.handleDebit))
	m.HandleFunc("POST "+seamless.PathCredit, s.signed(s.handleCredit))
	m.HandleFunc("POST "+seamless.PathRollback, s.signed(s.handleRollback))
	m.HandleFunc("POST /admin/players", s.signed(s.handleSetPlayer))
	m.HandleFunc("GET /admin/report", s.signed(s.handleReport))
	m.HandleFunc("GET /admin/faults", s.signed(s.handleFaults))
	m.HandleFunc("PUT /admin/faults", s.signed(s.handleSetFaults))
	return m
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close wakes every call held by a slow fault (they are answered 500, not taken). It does
// not close the store.
func (s *Server) Close() { s.once.Do(func() { close(s.stop) }) }

// Idle waits until no protocol call is in flight (calls held by a slow fault included), or
// ctx is done: a test's way to let late calls land before it reads the report.
func (s *Server) Idle(ctx context.Context) error {
	for s.calls.Load() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return nil
}

// Faults are the faults in force.
func (s *Server) Faults() Faults { return s.faults.get() }

// SetFaults changes the faults in force.
func (s *Server) SetFaults(f Faults) error {
	if err := f.Check(); err != nil {
		return err
	}
	s.faults.set(f)
	return nil
}

// signed reads the body and checks its signature before anything else happens.
func (s *Server) signed(h func(http.ResponseWriter, *http.Request, []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := seamless.ReadSigned(w, r, s.secret)
		if err != nil {
			s.refuse(w, r, err)
			return
		}
		h(w, r, body)
	}
}

func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	status, body := seamless.ErrorBody(err)
	if status >= 500 {
		s.log.Error("wallet", "path", r.URL.Path, "err", err)
	}
	seamless.WriteSigned(w, r, s.secret, status, body)
}

func (s *Server) handleBalance(w http.ResponseWriter, r *http.Request, body []byte) {
	q, err := seamless.DecodeBalance(body)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	s.take(w, r, func(ctx context.Context) (Reply, error) {
		b, err := s.store.Balance(ctx, q)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Status: http.StatusOK, Body: seamless.AnswerBody(b)}, nil
	})
}

func (s *Server) handleDebit(w http.ResponseWriter, r *http.Request, body []byte) {
	q, err := seamless.DecodeDebit(body)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	s.take(w, r, func(ctx context.Context) (Reply, error) { return s.store.Debit(ctx, q) })
}

func (s *Server) handleCredit(w http.ResponseWriter, r *http.Request, body []byte) {
	q, err := seamless.DecodeCredit(body)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	s.take(w, r, func(ctx context.Context) (Reply, error) { return s.store.Credit(ctx, q) })
}

func (s *Server) handleRollback(w http.ResponseWriter, r *http.Request, body []byte) {
	q, err := seamless.DecodeRollback(body)
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	s.take(w, r, func(ctx context.Context) (Reply, error) { return s.store.Rollback(ctx, q) })
}

// take runs a decoded call through the faults in force: hold it (slow), fail it before
// taking it (fail), or take it and drop the answer (lose). A call once taken runs to its
// end even when the caller has gone: that is what a late debit is.
func (s *Server) take(w http.ResponseWriter, r *http.Request, apply func(context.Context) (Reply, error)) {
	s.calls.Add(1)
	defer s.calls.Add(-1)
	f := s.faults.roll()
	if f.slow > 0 {
		t := time.NewTimer(f.slow)
		select {
		case <-t.C:
		case <-s.stop:
			t.Stop()
			s.refuse(w, r, errors.New("the wallet is stopping"))
			return
		}
	}
	if f.fail {
		seamless.WriteSigned(w, r, s.secret, http.StatusInternalServerError, seamless.Canonical(seamless.ErrorAnswer{
			Error: seamless.CodeInternal, Message: "fault switch: failed before taking the call; nothing was applied"}))
		return
	}
	rep, err := apply(context.WithoutCancel(r.Context()))
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	if f.lose {
		panic(http.ErrAbortHandler) // taken and recorded; the connection closes without an answer
	}
	seamless.WriteSigned(w, r, s.secret, rep.Status, rep.Body)
}

func (s *Server) handleSetPlayer(w http.ResponseWriter, r *http.Request, body []byte) {
	var p Player
	if err := seamless.Decode(body, &p); err != nil {
		s.refuse(w, r, err)
		return
	}
	if err := s.store.SetPlayer(r.Context(), p); err != nil {
		s.refuse(w, r, err)
		return
	}
	s.answer(w, r, p)
}

func (s *Server) handleReport(w http.ResponseWriter, r *http.Request, _ []byte) {
	rep, err := s.store.Report(r.Context())
	if err != nil {
		s.refuse(w, r, err)
		return
	}
	s.answer(w, r, rep)
}

func (s *Server) handleFaults(w http.ResponseWriter, r *http.Request, _ []byte) {
	s.answer(w, r, s.faults.get())
}

func (s *Server) handleSetFaults(w http.ResponseWriter, r *http.Request, body []byte) {
	var f Faults
	if err := seamless.Decode(body, &f); err != nil {
		s.refuse(w, r, err)
		return
	}
	s.faults.set(f)
	s.answer(w, r, f)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, v any) {
	b, _ := json.Marshal(v)
	seamless.WriteSigned(w, r, s.secret, http.StatusOK, b)
}
