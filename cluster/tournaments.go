package cluster

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// A tournament lives on one server, its owner (the holder of its journal's lease), like a
// table: its view and its commands go to the owner on <p>.host.<host>.tour, and the list of
// tournaments gathers every server's.

// tourWire is a request about tournaments: a view, a command, or the list of a server's.
type tourWire struct {
	Kind    string              `json:"kind"` // view, cmd or list
	ID      string              `json:"id,omitempty"`
	Player  string              `json:"player,omitempty"`
	Command *tournament.Command `json:"command,omitempty"`
}

// Tournament asks a tournament's owner for its view as player sees it; see live.Cluster.
func (n *Node) Tournament(ctx context.Context, id, player string) (*live.TournamentView, error) {
	var v live.TournamentView
	if err := n.request(ctx, tabletop.Stream(id), "tour", tourWire{Kind: "view", ID: id, Player: player}, &v); err != nil {
		return nil, n.tournamentError(id, err)
	}
	return &v, nil
}

// TournamentCommand sends a player's or an admin's command to a tournament's owner; see
// live.Cluster.
func (n *Node) TournamentCommand(ctx context.Context, id string, c tournament.Command) error {
	return n.tournamentError(id, n.request(ctx, tabletop.Stream(id), "tour", tourWire{Kind: "cmd", ID: id, Command: &c}, nil))
}

// tournamentError names the tournament where the request's error speaks of its journal.
func (n *Node) tournamentError(id string, err error) error {
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		return baccarat.Errorf(baccarat.CodeNotFound, "no tournament %q runs now (if it exists, a server takes it up within seconds)", id)
	}
	return err
}

// Tournaments lists the tournaments every other server runs, as each says; see
// live.Cluster. A server that does not answer in time is left out of this list.
func (n *Node) Tournaments(ctx context.Context) []live.TournamentView {
	var servers []string
	n.lobby.Range(func(k, _ any) bool {
		servers = append(servers, k.(string))
		return true
	})
	var mu sync.Mutex
	var out []live.TournamentView
	var wg sync.WaitGroup
	body, _ := json.Marshal(tourWire{Kind: "list"})
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reply, err := n.ask(ctx, n.subject("host", s, "tour"), s, body)
			var vs []live.TournamentView
			if err != nil || decodeAnswer(reply, &vs) != nil {
				return
			}
			mu.Lock()
			out = append(out, vs...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func (n *Node) onTournament(m *nats.Msg, _ string, body []byte) {
	var w tourWire
	if err := json.Unmarshal(body, &w); err != nil {
		n.reply(m, nil, baccarat.Errorf(baccarat.CodeBadRequest, "a tournament request that does not decode: %v", err))
		return
	}
	go func() { // a command waits for its commit: never on NATS's delivery goroutine
		ctx, cancel := context.WithTimeout(context.Background(), n.opt.Timeout)
		defer cancel()
		switch {
		case w.Kind == "view":
			v, err := n.host.Peer().Tournament(ctx, w.ID, w.Player)
			n.reply(m, v, err)
		case w.Kind == "cmd" && w.Command != nil:
			n.reply(m, nil, n.host.Peer().TournamentCommand(ctx, w.ID, *w.Command))
		case w.Kind == "list":
			n.reply(m, n.host.Peer().Tournaments(), nil)
		default:
			n.reply(m, nil, baccarat.Errorf(baccarat.CodeBadRequest, "a tournament request of kind %q", w.Kind))
		}
	}()
}
