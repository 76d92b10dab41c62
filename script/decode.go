package script

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
)

// decoder reads script lines. encoding/json is the reference; the usual line, a flat object
// of plain strings, integers and booleans naming the fields of a hot command, is read by a
// scanner made for it, which gives up on anything it does not know (escapes, null, floats,
// arrays, an unknown or repeated key, a key in another letter case, anything after the
// object) and leaves that line to encoding/json. A line therefore decodes to the command,
// or the error, encoding/json gives it (FuzzDecodeLine holds the scanner to that).
type decoder struct {
	slow   bool              // encoding/json for every line: the reference the tests compare with
	names  map[string]string // the names lines repeat (commands, players, bets), made once
	recent [256]string       // the names last seen, by slot: most lookups compare one string
}

// maxNames bounds the names a decoder keeps, however many a script makes up.
const maxNames = 4096

// decode reads a line into l, which it clears first.
func (d *decoder) decode(text []byte, l *lineCmd) error {
	*l = lineCmd{}
	if !d.slow && d.fast(text, l) {
		return nil
	}
	*l = lineCmd{}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	return dec.Decode(l)
}

// field is a key of lineCmd the scanner reads; fieldNone is every other key.
type field uint8

const (
	fieldNone field = iota
	fieldCmd
	fieldActor
	fieldRole
	fieldAt
	fieldReason
	fieldPlayer
	fieldSeat
	fieldBet
	fieldStake
	fieldOdds
	fieldRequestID
	fieldWager
	fieldCard
	fieldKnown
	fieldCut
	fieldDecks
	fieldSalt
	fieldCutCard
	fieldUntil
	fieldAmount
	fieldMin
	fieldMax
	fieldLimit
)

// fieldOf is the field a key names, exactly as lineCmd's tags spell it.
func fieldOf(key []byte) field {
	switch string(key) {
	case "cmd":
		return fieldCmd
	case "actor":
		return fieldActor
	case "role":
		return fieldRole
	case "at":
		return fieldAt
	case "reason":
		return fieldReason
	case "player":
		return fieldPlayer
	case "seat":
		return fieldSeat
	case "bet":
		return fieldBet
	case "stake":
		return fieldStake
	case "odds":
		return fieldOdds
	case "request_id":
		return fieldRequestID
	case "wager":
		return fieldWager
	case "card":
		return fieldCard
	case "known":
		return fieldKnown
	case "cut":
		return fieldCut
	case "decks":
		return fieldDecks
	case "salt":
		return fieldSalt
	case "cut_card":
		return fieldCutCard
	case "until":
		return fieldUntil
	case "amount":
		return fieldAmount
	case "min":
		return fieldMin
	case "max":
		return fieldMax
	case "limit":
		return fieldLimit
	}
	return fieldNone
}

// fast reads a line of the usual shape into l; false when it is not one.
func (d *decoder) fast(b []byte, l *lineCmd) bool {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	var seen uint32
	for {
		key, j, ok := plainString(b, i)
		if !ok {
			return false
		}
		f := fieldOf(key)
		if f == fieldNone || seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		i = skipSpace(b, j)
		if i == len(b) || b[i] != ':' {
			return false
		}
		if i, ok = d.value(b, skipSpace(b, i+1), f, l); !ok {
			return false
		}
		i = skipSpace(b, i)
		if i == len(b) {
			return false
		}
		switch b[i] {
		case '}':
			return skipSpace(b, i+1) == len(b)
		case ',':
			i = skipSpace(b, i+1)
		default:
			return false
		}
	}
}

// value reads the value of field f at b[i:] into l and returns where it ends.
func (d *decoder) value(b []byte, i int, f field, l *lineCmd) (int, bool) {
	switch f {
	case fieldStake, fieldAmount, fieldMin, fieldMax:
		var v int64
		j, ok := number(b, i, &v)
		if ok {
			*money(f, l) = baccarat.Money(v)
		}
		return j, ok
	case fieldDecks, fieldCutCard, fieldLimit:
		var v int64
		j, ok := number(b, i, &v)
		if !ok || int64(int(v)) != v {
			return j, false
		}
		*ints(f, l) = int(v)
		return j, true
	case fieldWager:
		if i < len(b) && b[i] == '-' {
			return i, false
		}
		var v int64
		j, ok := number(b, i, &v)
		l.Wager = uint64(v)
		return j, ok
	case fieldKnown, fieldCut:
		return boolean(b, i, bools(f, l))
	}
	s, j, ok := plainString(b, i)
	if !ok {
		return j, false
	}
	switch f {
	case fieldRole:
		ok = l.Role.UnmarshalText(s) == nil
	case fieldOdds:
		ok = l.Odds.UnmarshalText(s) == nil
	case fieldCard:
		l.Card = new(baccarat.Card)
		ok = l.Card.UnmarshalText(s) == nil
	case fieldAt:
		ok = l.At.UnmarshalJSON(b[i:j]) == nil
	case fieldUntil:
		ok = l.Until.UnmarshalJSON(b[i:j]) == nil
	case fieldReason:
		l.Reason = string(s)
	case fieldRequestID:
		l.RequestID = string(s)
	case fieldSalt:
		l.Salt = string(s)
	default:
		*names(f, l) = d.name(s)
	}
	return j, ok
}

func money(f field, l *lineCmd) *baccarat.Money {
	switch f {
	case fieldStake:
		return &l.Stake
	case fieldAmount:
		return &l.Amount
	case fieldMin:
		return &l.Min
	}
	return &l.Max
}

func ints(f field, l *lineCmd) *int {
	switch f {
	case fieldDecks:
		return &l.Decks
	case fieldCutCard:
		return &l.CutCard
	}
	return &l.Limit
}

func bools(f field, l *lineCmd) *bool {
	if f == fieldKnown {
		return &l.Known
	}
	return &l.Cut
}

// names is the field of a name: one a script repeats line after line.
func names(f field, l *lineCmd) *string {
	switch f {
	case fieldCmd:
		return &l.Cmd
	case fieldActor:
		return &l.Actor
	case fieldPlayer:
		return &l.Player
	case fieldSeat:
		return &l.Seat
	}
	return &l.Bet
}

// name returns s as a string, the same string each time while it has room.
func (d *decoder) name(s []byte) string {
	if len(s) == 0 {
		return ""
	}
	i := slot(s)
	if v := d.recent[i]; v == string(s) {
		return v
	}
	v, ok := d.names[string(s)]
	if !ok {
		v = string(s)
		if d.names == nil {
			d.names = map[string]string{}
		}
		if len(d.names) < maxNames {
			d.names[v] = v
		}
	}
	d.recent[i] = v
	return v
}

// slot is where a name sits in a cache of 256: by its length and its end bytes, which tell
// a script's names apart (p1 … p7, banker, tie, player_pair) without hashing them.
func slot[S string | []byte](s S) int {
	return (len(s)*31 + int(s[0])*7 + int(s[len(s)-1])) & 255
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plainString reads a JSON string at b[i:] that has no escapes, no control bytes and valid
// UTF-8: its bytes are its value. It returns the bytes and where the string ends.
func plainString(b []byte, i int) ([]byte, int, bool) {
	if i == len(b) || b[i] != '"' {
		return nil, i, false
	}
	ascii := true
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			s := b[i+1 : j]
			return s, j + 1, ascii || utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, j, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, len(b), false
}

// number reads a JSON integer at b[i:] (no fraction, no exponent, no leading zero) that
// fits in an int64.
func number(b []byte, i int, v *int64) (int, bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	k := j
	for k < len(b) && b[k] >= '0' && b[k] <= '9' {
		k++
	}
	if k == j || (b[j] == '0' && k > j+1) || k-j > 18 {
		return k, false // a leading zero is not JSON; 19 digits may not fit
	}
	var n int64
	for _, c := range b[j:k] {
		n = n*10 + int64(c-'0')
	}
	if j > i {
		n = -n
	}
	*v = n
	return k, true
}

// boolean reads true or false at b[i:].
func boolean(b []byte, i int, v *bool) (int, bool) {
	switch {
	case bytes.HasPrefix(b[i:], []byte("true")):
		*v = true
		return i + 4, true
	case bytes.HasPrefix(b[i:], []byte("false")):
		*v = false
		return i + 5, true
	}
	return i, false
}
