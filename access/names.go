package access

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
)

// Display names. Other people never see a player's account id: for players an operator
// launched, it is the operator's own id of them. They see a display name instead (the
// launch's, or one the player chose), else a neutral "Player 4821" whose number comes from
// a keyed hash of the id, and, where a page must tell players apart (whose squeeze, whose
// row), a public handle: another keyed hash, stable for an account, that tells nothing of
// its id without the server's secret.

// MaxDisplayName is the longest name a player may choose, in characters.
const MaxDisplayName = 24

// reservedNames are the words a name may not start with: a player named "Dealer" or
// "House 2" would speak, on every other player's page, as the table's staff or the house.
var reservedNames = []string{"dealer", "pit", "house", "admin", "system"}

// CheckName checks a display name a player chose and returns it trimmed: 1 to
// MaxDisplayName characters of letters (of any script, with their combining marks), digits,
// spaces, '_', '-' and '.'; no control or invisible character; not a name of the staff or
// the house. Refusals are baccarat.CodeInvalidName and say what to change.
func CheckName(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", baccarat.Errorf(baccarat.CodeInvalidName, "the name is not valid text")
	}
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return "", baccarat.Errorf(baccarat.CodeInvalidName, "the name is empty: give 1 to %d characters", MaxDisplayName)
	}
	if n > MaxDisplayName {
		return "", baccarat.Errorf(baccarat.CodeInvalidName, "the name has %d characters: at most %d", n, MaxDisplayName)
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == ' ', r == '_', r == '-', r == '.':
		case unicode.In(r, unicode.Mn, unicode.Mc) && i > 0: // Thai vowels, Hangul jamo, accents
		default:
			return "", baccarat.Errorf(baccarat.CodeInvalidName, "the name may not contain %q: use letters, digits, spaces, _ - and .", r)
		}
	}
	low := strings.ToLower(s)
	if strings.HasPrefix(low, "bot.") {
		return "", baccarat.Errorf(baccarat.CodeInvalidName, "names starting with \"bot.\" are the house bots'")
	}
	first := strings.FieldsFunc(low, func(r rune) bool { return r == ' ' || r == '_' || r == '-' || r == '.' })
	for _, w := range reservedNames {
		if len(first) > 0 && first[0] == w {
			return "", baccarat.Errorf(baccarat.CodeInvalidName, "a name may not start with %q: it would pass for the staff or the house", w)
		}
	}
	return s, nil
}

// Person is how other people see a player: their display name, or, without one, the
// number of their neutral name ("Player 4821", worded by the page in its language); Bot
// marks a house bot (its name is the bot's).
type Person struct {
	Name   string `json:"name,omitempty"`
	Number int    `json:"number,omitempty"`
	Bot    bool   `json:"bot,omitempty"`
}

// Names reads the accounts whose names People shows: a Store or a Cache.
type Names interface {
	Account(ctx context.Context, id string) (Account, error)
}

// People shows players to one another under a secret every server of a deployment shares
// (the tokens'), so that a handle or a number is the same on every server and guessed on
// none.
type People struct {
	key   []byte
	names Names

	mu      sync.Mutex
	seen    map[string]seenPerson // names read lately: a leaderboard shows hundreds each time
	handles map[string]string     // handles made: a squeeze names its player at every peel
}

type seenPerson struct {
	p  Person
	at time.Time
}

// NameTTL is how long People keeps a name it has read: a name a player changes shows on
// the other servers' pages within it (at once on the server that took the change: Forget).
const NameTTL = 30 * time.Second

// maxSeen bounds the names kept; past it, People starts again empty.
const maxSeen = 1 << 16

// NewPeople returns People keyed by secret, reading names from names (nil: numbers only).
func NewPeople(secret []byte, names Names) *People {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("people"))
	return &People{key: m.Sum(nil), names: names, seen: map[string]seenPerson{}, handles: map[string]string{}}
}

// Forget drops the name People keeps of a player: they changed it.
func (p *People) Forget(id string) {
	p.mu.Lock()
	delete(p.seen, id)
	p.mu.Unlock()
}

func (p *People) mac(what, id string) []byte {
	m := hmac.New(sha256.New, p.key)
	m.Write([]byte(what + "|" + id))
	return m.Sum(nil)
}

var handleEncoding = base32.NewEncoding("abcdefghijkmnpqrstuvwxyz23456789").WithPadding(base32.NoPadding)

// Handle is a player's public handle: "h" and 12 characters (60 bits of a keyed hash of
// the id), what the public table stream and the tournament pages name a player by. A house
// bot keeps its id: it is nobody's secret.
func (p *People) Handle(id string) string {
	if id == "" || strings.HasPrefix(id, "bot.") {
		return id
	}
	p.mu.Lock()
	h, ok := p.handles[id]
	p.mu.Unlock()
	if ok {
		return h
	}
	h = "h" + handleEncoding.EncodeToString(p.mac("handle", id))[:12]
	p.mu.Lock()
	if len(p.handles) >= maxSeen {
		clear(p.handles)
	}
	p.handles[id] = h
	p.mu.Unlock()
	return h
}

// Number is the number of a player's neutral name, 1000 to 9999.
func (p *People) Number(id string) int {
	return 1000 + int(binary.BigEndian.Uint32(p.mac("number", id))%9000)
}

// Person is how others see the player: a bot by its name, a player by their display name
// when it passes CheckName (an operator's or an admin's name that does not, "Dealer Ann",
// shows as the number), else by their number. An account that cannot be read shows as its
// number.
func (p *People) Person(ctx context.Context, id string) Person {
	if name, ok := strings.CutPrefix(id, "bot."); ok {
		return Person{Name: name, Bot: true}
	}
	now := time.Now()
	p.mu.Lock()
	s, ok := p.seen[id]
	p.mu.Unlock()
	if ok && now.Sub(s.at) < NameTTL {
		return s.p
	}
	person := Person{Number: p.Number(id)}
	if p.names != nil {
		a, err := p.names.Account(ctx, id)
		if err != nil && baccarat.ErrorCode(err) != baccarat.CodeNotFound {
			return person // not kept: read again next time
		}
		if name, err := CheckName(a.Name); err == nil && a.Role == RolePlayer {
			person = Person{Name: name}
		}
	}
	p.mu.Lock()
	if len(p.seen) >= maxSeen {
		clear(p.seen)
	}
	p.seen[id] = seenPerson{p: person, at: now}
	p.mu.Unlock()
	return person
}

// People returns People keyed by the tokens' secret: the same handles and numbers as every
// server's sharing it.
func (t *Tokens) People(names Names) *People { return NewPeople(t.secret, names) }
