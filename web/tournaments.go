package web

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
)

// longPoll is the longest GET /api/tournaments/{id}?after= waits for a change: well within
// the server's write timeout.
const longPoll = 20 * time.Second

// pollGate caps the long polls waiting at once, per client address and in all, as the
// WebSocket streams are capped: each holds a connection and a goroutine.
type pollGate struct {
	mu     sync.Mutex
	byAddr map[string]int
	total  int
}

// The caps of long polls waiting at once.
const (
	pollsPerAddress = 256
	pollsTotal      = 20_000
)

var polls = &pollGate{byAddr: map[string]int{}}

func (g *pollGate) enter(addr string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.total >= pollsTotal || g.byAddr[addr] >= pollsPerAddress {
		return false
	}
	g.total++
	g.byAddr[addr]++
	return true
}

func (g *pollGate) leave(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.byAddr[addr]--; g.byAddr[addr] <= 0 {
		delete(g.byAddr, addr)
	}
}

// playerOf is the signed-in player of a public read ("" for anyone else).
func (s *Server) playerOf(r *http.Request) string {
	tok := bearer(r)
	if tok == "" {
		return ""
	}
	id, err := s.identify(r.Context(), tok)
	if err != nil || id.Role != RolePlayer {
		return ""
	}
	return id.ID
}

// maxListed is how many tournaments GET /api/tournaments lists: the latest to start.
const maxListed = 100

func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	list := s.tournaments.Tournaments()
	if list == nil {
		list = []live.TournamentView{}
	}
	list = list[:min(len(list), maxListed)]
	if !s.seesIDs(r) {
		for i := range list {
			list[i] = list[i].Public(r.Context(), s.names.People())
		}
	}
	writeJSON(w, 200, list)
}

// handleTournament is a tournament as its page shows it. With ?after=SEQ it waits (a long
// poll, at most longPoll) until the tournament has moved past event SEQ: how a page follows
// it.
func (s *Server) handleTournament(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := baccarat.CheckID("tournament id", id); err != nil {
		s.writeError(w, r, err)
		return
	}
	if q := r.URL.Query(); q.Has("after") {
		after, err := strconv.ParseUint(q.Get("after"), 10, 64)
		if err != nil {
			s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "after: the seq of the last event seen, a whole number"))
			return
		}
		addr := clientAddr(r)
		if !polls.enter(addr) {
			s.tooMany(w, r, 2*time.Second, baccarat.Errorf(baccarat.CodeRateLimited, "too many tournament pages followed from this address: try again in a moment"))
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), longPoll)
		err = s.tournaments.WaitTournament(ctx, id, after)
		cancel()
		polls.leave(addr)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	v, err := s.tournaments.Tournament(r.Context(), id, s.playerOf(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, s.publicTournament(r, *v))
}

// tournamentAction is register, unregister or rebuy for the signed-in player; the answer is
// the tournament as they now see it.
func (s *Server) tournamentAction(act func(t Tournaments, ctx context.Context, tournament, player string) error, pays bool) func(http.ResponseWriter, *http.Request, Identity) {
	return func(w http.ResponseWriter, r *http.Request, id Identity) {
		tid := r.PathValue("id")
		if err := baccarat.CheckID("tournament id", tid); err != nil {
			s.writeError(w, r, err)
			return
		}
		if pays {
			if err := s.mayPlay(r, id.Account); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		if err := act(s.tournaments, r.Context(), tid, id.ID); err != nil {
			s.writeError(w, r, err)
			return
		}
		v, err := s.tournaments.Tournament(r.Context(), tid, id.ID)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, 200, v.Public(r.Context(), s.names.People()))
	}
}

func (s *Server) handleCreateTournament(w http.ResponseWriter, r *http.Request, id Identity) {
	var spec live.TournamentSpec
	if err := readJSON(w, r, &spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.desk.CreateTournament(r.Context(), spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.tournaments.Tournament(r.Context(), spec.Config.ID, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 201, v)
}
