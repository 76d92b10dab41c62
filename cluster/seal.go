package cluster

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Every message between the servers is sealed: encrypted and authenticated with AES-256-GCM
// under a key derived from the cluster's shared secret, over its subject, its sender, the
// sender's run and sequence number and the time it was sent. A credential for the NATS
// server is not enough to move money: a message that was not sealed by a server holding the
// secret, or was meant for another subject, or was sealed too long ago, or was seen before,
// is dropped before anything of it is decoded, and nobody without the secret can read what
// the servers tell each other (players' wagers, funds, private messages).
//
// A sealed message is
//
//	version (1 byte, 1)
//	sender  (1 byte length, then the sender's subject token)
//	run     (8 bytes): chosen at random when the sender started
//	seq     (8 bytes, big-endian): the sender's count of messages sealed in this run
//	sent    (8 bytes, big-endian): Unix milliseconds when sealed
//	then the ciphertext of the body and the GCM tag (16 bytes).
//
// Each sender's run has a key of its own, HMAC-SHA256(cluster key, "seal" sender run), and
// its sequence numbers are the nonces, so no nonce is ever used twice under one key. The
// header and the subject are the additional data: a message moved to another subject, or
// with another sender, fails. A receiver keeps, per sender and run, which of the last
// replayWindow sequence numbers it has seen (messages on different subjects may be handled
// out of order), and refuses one sent more than maxSkew away from its own clock.
const sealVersion = 1

const (
	replayWindow = 4096
	maxSkew      = 30 * time.Second
	headerSize   = 1 + 1 + 8 + 8 + 8 // without the sender
)

var (
	errSealed   = errors.New("cluster: a message that is not sealed by a server of this cluster")
	errReplayed = errors.New("cluster: a message seen before")
	errStale    = errors.New("cluster: a message sealed too far from now")
)

// sealer seals this server's messages and opens the others'.
type sealer struct {
	key  [32]byte // the cluster key, from the shared secret
	me   string
	run  [8]byte
	seq  atomic.Uint64
	mine cipher.AEAD
	now  func() time.Time

	mu    sync.Mutex
	peers map[peerRun]*peer
}

type peerRun struct {
	sender string
	run    [8]byte
}

// peer is what a receiver keeps of one sender's run: its key, and the sequence numbers seen.
type peer struct {
	aead cipher.AEAD
	top  uint64                    // the highest sequence number seen
	seen [replayWindow / 64]uint64 // bit i%replayWindow: i seen, for i in (top-replayWindow, top]
	last time.Time
}

// newSealer makes this server's sealer: secret is the cluster's shared secret, me its
// sender token.
func newSealer(secret []byte, me string) (*sealer, error) {
	if len(secret) < 16 {
		return nil, errors.New("cluster: the shared secret must be at least 16 bytes")
	}
	if len(me) == 0 || len(me) > 255 {
		return nil, errors.New("cluster: a sender token of 1 to 255 bytes")
	}
	s := &sealer{me: me, now: time.Now, peers: map[peerRun]*peer{}}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("baccarat cluster v1"))
	copy(s.key[:], m.Sum(nil))
	if _, err := rand.Read(s.run[:]); err != nil {
		return nil, err
	}
	var err error
	s.mine, err = s.aead(me, s.run)
	return s, err
}

// aead is the cipher of one sender's run.
func (s *sealer) aead(sender string, run [8]byte) (cipher.AEAD, error) {
	m := hmac.New(sha256.New, s.key[:])
	m.Write([]byte("seal"))
	m.Write([]byte{byte(len(sender))})
	m.Write([]byte(sender))
	m.Write(run[:])
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// seal returns body sealed for subject.
func (s *sealer) seal(subject string, body []byte) []byte {
	seq := s.seq.Add(1)
	out := make([]byte, 0, headerSize+len(s.me)+len(body)+s.mine.Overhead())
	out = append(out, sealVersion, byte(len(s.me)))
	out = append(out, s.me...)
	out = append(out, s.run[:]...)
	out = binary.BigEndian.AppendUint64(out, seq)
	out = binary.BigEndian.AppendUint64(out, uint64(s.now().UnixMilli()))
	var nonce [12]byte
	binary.BigEndian.PutUint64(nonce[4:], seq)
	return s.mine.Seal(out, nonce[:], body, additional(subject, out))
}

// additional is the data a seal authenticates besides the body: the subject, then the header.
func additional(subject string, header []byte) []byte {
	ad := make([]byte, 0, len(subject)+1+len(header))
	ad = append(ad, subject...)
	ad = append(ad, 0)
	return append(ad, header...)
}

// open checks and opens a message that came on subject: its sender and body, or an error
// (and nothing decoded) when it was not sealed by a server of the cluster for this subject,
// was seen before, or was sealed more than maxSkew from now.
func (s *sealer) open(subject string, msg []byte) (string, []byte, error) {
	if len(msg) < 2 || msg[0] != sealVersion {
		return "", nil, errSealed
	}
	n := int(msg[1])
	if n == 0 || len(msg) < headerSize+n+16 {
		return "", nil, errSealed
	}
	header := msg[:headerSize+n]
	sender := string(header[2 : 2+n])
	var run [8]byte
	copy(run[:], header[2+n:])
	seq := binary.BigEndian.Uint64(header[10+n:])
	sent := time.UnixMilli(int64(binary.BigEndian.Uint64(header[18+n:])))
	now := s.now()
	if d := now.Sub(sent); d > maxSkew || d < -maxSkew {
		return "", nil, errStale
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := peerRun{sender, run}
	p := s.peers[key]
	if p == nil {
		aead, err := s.aead(sender, run)
		if err != nil {
			return "", nil, errSealed
		}
		p = &peer{aead: aead}
	}
	if p.has(seq) {
		return "", nil, errReplayed
	}
	var nonce [12]byte
	binary.BigEndian.PutUint64(nonce[4:], seq)
	body, err := p.aead.Open(nil, nonce[:], msg[len(header):], additional(subject, header))
	if err != nil {
		return "", nil, errSealed
	}
	p.mark(seq)
	p.last = now
	if s.peers[key] == nil {
		s.forgetOld(now)
		s.peers[key] = p
	}
	return sender, body, nil
}

// forgetOld drops the runs not heard from for a while: any message of theirs is stale now.
func (s *sealer) forgetOld(now time.Time) {
	if len(s.peers) < 64 {
		return
	}
	for k, p := range s.peers {
		if now.Sub(p.last) > 4*maxSkew {
			delete(s.peers, k)
		}
	}
}

// has reports whether seq was seen, or is too old to tell (refused as seen).
func (p *peer) has(seq uint64) bool {
	switch {
	case seq == 0:
		return true
	case seq > p.top:
		return false
	case p.top-seq >= replayWindow:
		return true
	}
	return p.seen[(seq%replayWindow)/64]&(1<<(seq%64)) != 0
}

// mark records seq as seen, sliding the window forward when it is the newest.
func (p *peer) mark(seq uint64) {
	if seq > p.top {
		if seq-p.top >= replayWindow {
			p.seen = [replayWindow / 64]uint64{}
		} else {
			for i := p.top + 1; i < seq; i++ {
				p.seen[(i%replayWindow)/64] &^= 1 << (i % 64)
			}
		}
		p.top = seq
	}
	p.seen[(seq%replayWindow)/64] |= 1 << (seq % 64)
}
