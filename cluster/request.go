package cluster

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nats-io/nats.go"
)

// Requests and their replies. A request goes to the subject of the server that owns the
// table, sealed; its reply comes back on an inbox of the asker's, sealed by whoever answered.
// NATS delivers the first reply on a subject to a plain request, and anyone who can publish
// could answer first; so each server keeps one inbox subscription of its own, and a request
// waits on its inbox for a reply it can open that was sealed by the server it asked, dropping
// any other.

// replies routes the replies that come to this server's inbox to the requests waiting.
type replies struct {
	prefix string // "<inbox>." ; a request's inbox is prefix + its number
	next   atomic.Uint64
	mu     sync.Mutex
	wait   map[string]chan *nats.Msg
}

func (r *replies) add() (string, chan *nats.Msg) {
	inbox := r.prefix + strconv.FormatUint(r.next.Add(1), 36)
	ch := make(chan *nats.Msg, 4)
	r.mu.Lock()
	r.wait[inbox] = ch
	r.mu.Unlock()
	return inbox, ch
}

func (r *replies) done(inbox string) {
	r.mu.Lock()
	delete(r.wait, inbox)
	r.mu.Unlock()
}

// route hands a message on the inbox to the request waiting for it, if any; never blocks.
func (r *replies) route(m *nats.Msg) {
	r.mu.Lock()
	ch := r.wait[m.Subject]
	r.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- m:
	default: // a flood on one inbox: the genuine reply is among the first few, or it times out
	}
}

// ask sends a sealed request to subject and returns the body of the first reply sealed by
// owner (the server it asked). NATS's "no responders" is reported as nats.ErrNoResponders.
func (n *Node) ask(ctx context.Context, subject, owner string, body []byte) ([]byte, error) {
	inbox, ch := n.replies.add()
	defer n.replies.done(inbox)
	if err := n.nc.PublishRequest(subject, inbox, n.sealer.seal(subject, body)); err != nil {
		return nil, err
	}
	for {
		select {
		case <-ctx.Done():
			return nil, nats.ErrTimeout
		case m := <-ch:
			if len(m.Data) == 0 && m.Header.Get("Status") == "503" {
				return nil, nats.ErrNoResponders
			}
			sender, reply, err := n.sealer.open(inbox, m.Data)
			if err != nil || sender != owner {
				n.dropped("a reply", subject, sender, err)
				continue
			}
			return reply, nil
		}
	}
}

// respond answers a request, sealed for its inbox.
func (n *Node) respond(m *nats.Msg, body []byte) {
	if !strings.HasPrefix(m.Reply, n.subject("inbox")+".") {
		return // a server of the cluster asks from its inbox; nothing else is answered
	}
	_ = n.nc.Publish(m.Reply, n.sealer.seal(m.Reply, body))
}
