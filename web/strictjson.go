package web

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
)

// Strict keys. encoding/json matches an object's keys to a struct's fields without regard to
// case ("Stake", even "ſtake", fill stake) and lets a key given twice overwrite the first, so
// {"stake":100,"Stake":100000} is a wager of 100000 to the server and may be one of 100 to a
// proxy, a log or a signature check that reads the first. A body is therefore scanned before
// it is decoded: every key of an object once, and a struct's keys exactly as its fields are
// named. The scan walks the bytes in step with the endpoint's type, allocating nothing for the
// bodies we take (only a key with an escape, or an object of more than 16 keys, costs one).

// maxDepth is encoding/json's nesting limit: the scan calls deeper input malformed, as
// json.Valid does.
const maxDepth = 10000

// errMalformed is the scan's verdict on a body that is not one JSON value: encoding/json,
// which decodes it next, says what is wrong.
var errMalformed = errors.New("not one JSON value")

// shape is what the scan knows of a Go type: a struct's fields by their exact JSON names,
// or the shape of a map's values or of a slice's elements. A value whose keys it cannot know
// (an interface, a type with its own UnmarshalJSON) has anyShape: only repeated keys are
// refused in it.
type shape struct {
	fields map[string]*shape // a struct's fields; nil for anything else
	names  []string          // the fields' names, sorted, for the messages
	values *shape            // a map's values; nil: anyShape
	elems  *shape            // a slice's or array's elements; nil: anyShape
}

var anyShape = &shape{}

// shapes caches the shape of each type a body is decoded into.
var shapes sync.Map // reflect.Type → *shape

func shapeOf(t reflect.Type) *shape {
	if sh, ok := shapes.Load(t); ok {
		return sh.(*shape)
	}
	sh := buildShape(t, map[reflect.Type]*shape{})
	shapes.Store(t, sh)
	return sh
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// ownKeys are types that decode themselves from an object whose keys are known all the
// same: the keys a value with every field set writes (a table's schedule: "betting", "card"…).
var ownKeys = map[reflect.Type]any{reflect.TypeFor[live.Schedule](): live.DefaultSchedule}

// keyedShape is the shape of an object with the keys full writes, any values.
func keyedShape(full any) *shape {
	b, err := json.Marshal(full)
	var keys map[string]json.RawMessage
	if err != nil || json.Unmarshal(b, &keys) != nil {
		return anyShape
	}
	sh := &shape{fields: map[string]*shape{}}
	for k := range keys {
		sh.fields[k] = anyShape
		sh.names = append(sh.names, k)
	}
	slices.Sort(sh.names)
	return sh
}

// decodesItself reports whether encoding/json leaves t's JSON to t's own methods.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshaler) || p.Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || p.Implements(textUnmarshaler)
}

// buildShape makes t's shape; seen holds the shapes under construction (a type may contain
// itself).
func buildShape(t reflect.Type, seen map[reflect.Type]*shape) *shape {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if full, ok := ownKeys[t]; ok {
		return keyedShape(full)
	}
	if t == nil || t.Kind() == reflect.Interface || decodesItself(t) {
		return anyShape
	}
	if sh, ok := seen[t]; ok {
		return sh
	}
	sh := &shape{}
	seen[t] = sh
	switch t.Kind() {
	case reflect.Struct:
		sh.fields = map[string]*shape{}
		addFields(sh, t, seen, map[reflect.Type]bool{})
		for name := range sh.fields {
			sh.names = append(sh.names, name)
		}
		slices.Sort(sh.names)
	case reflect.Map:
		sh.values = buildShape(t.Elem(), seen)
	case reflect.Slice, reflect.Array:
		sh.elems = buildShape(t.Elem(), seen)
	default:
		return anyShape
	}
	return sh
}

// addFields adds t's fields as encoding/json names them: the json tag's name, else the Go
// name; "-" left out; an embedded struct without a tag name lends its fields (a shallower
// name wins). Where encoding/json would drop a name two embedded structs both promote, the
// scan keeps it: the decoder, which refuses unknown fields, still refuses it.
func addFields(sh *shape, t reflect.Type, seen map[reflect.Type]*shape, visited map[reflect.Type]bool) {
	if visited[t] {
		return
	}
	visited[t] = true
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if !f.IsExported() && !(f.Anonymous && ft.Kind() == reflect.Struct) {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
			embedded = append(embedded, ft)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, ok := sh.fields[name]; !ok {
			sh.fields[name] = buildShape(f.Type, seen)
		}
	}
	for _, et := range embedded {
		addFields(sh, et, seen, visited)
	}
}

// field is the shape of the value under key in an object of this shape, or the refusal of a
// key a struct does not have exactly.
func (sh *shape) field(key []byte) (*shape, error) {
	if sh.fields == nil {
		if sh.values != nil {
			return sh.values, nil
		}
		return anyShape, nil
	}
	if f, ok := sh.fields[string(key)]; ok {
		return f, nil
	}
	for _, name := range sh.names {
		if strings.EqualFold(name, string(key)) {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "the key %s is not a field of this body: names are exact, write %q", quoteKey(key), name)
		}
	}
	return nil, baccarat.Errorf(baccarat.CodeBadRequest, "the key %s is not a field this endpoint takes (web/API.md lists each body's fields)", quoteKey(key))
}

// quoteKey shows a key from outside in a message: quoted, at most 40 bytes of it.
func quoteKey(key []byte) string {
	return strconv.Quote(baccarat.Truncate(string(key), 40))
}

// keySet holds the keys seen in one object: on the stack up to 16, in a map beyond.
type keySet struct {
	n     int
	small [16][]byte
	big   map[string]struct{}
}

// add adds key; false if it was there already.
func (k *keySet) add(key []byte) bool {
	if k.big != nil {
		if _, ok := k.big[string(key)]; ok {
			return false
		}
		k.big[string(key)] = struct{}{}
		return true
	}
	for _, s := range k.small[:k.n] {
		if string(s) == string(key) {
			return false
		}
	}
	if k.n < len(k.small) {
		k.small[k.n] = key
		k.n++
		return true
	}
	k.big = make(map[string]struct{}, 2*len(k.small))
	for _, s := range k.small {
		k.big[string(s)] = struct{}{}
	}
	k.big[string(key)] = struct{}{}
	return true
}

// strictKeys scans body, which is to be decoded into a value of type t: nil if it is one
// JSON value whose objects give each key once and whose structs' keys are their fields'
// names exactly; a bad_request naming the first key at fault; errMalformed for a body that is
// not one JSON value.
func strictKeys(body []byte, t reflect.Type) error {
	s := scanner{b: body}
	s.space()
	if err := s.value(shapeOf(t)); err != nil {
		return err
	}
	s.space()
	if s.i != len(s.b) {
		return errMalformed
	}
	return nil
}

// scanner reads JSON (RFC 8259, as json.Valid takes it) from b at i.
type scanner struct {
	b     []byte
	i     int
	depth int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next reports whether the next byte is c, and takes it if so.
func (s *scanner) next(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *scanner) value(sh *shape) error {
	if s.i >= len(s.b) {
		return errMalformed
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(sh)
	case c == '[':
		return s.array(sh)
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return errMalformed
}

func (s *scanner) object(sh *shape) error {
	if s.depth++; s.depth > maxDepth {
		return errMalformed
	}
	s.i++ // {
	s.space()
	if s.next('}') {
		s.depth--
		return nil
	}
	var keys keySet
	for {
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return errMalformed
		}
		key, err := s.key()
		if err != nil {
			return err
		}
		s.space()
		if !s.next(':') {
			return errMalformed
		}
		s.space()
		inner, err := sh.field(key)
		if err != nil {
			return err
		}
		if !keys.add(key) {
			return baccarat.Errorf(baccarat.CodeBadRequest, "the key %s is given twice: send each key once", quoteKey(key))
		}
		if err := s.value(inner); err != nil {
			return err
		}
		s.space()
		if s.next(',') {
			continue
		}
		if s.next('}') {
			s.depth--
			return nil
		}
		return errMalformed
	}
}

func (s *scanner) array(sh *shape) error {
	if s.depth++; s.depth > maxDepth {
		return errMalformed
	}
	s.i++ // [
	elem := anyShape
	if sh.elems != nil {
		elem = sh.elems
	}
	s.space()
	if s.next(']') {
		s.depth--
		return nil
	}
	for {
		s.space()
		if err := s.value(elem); err != nil {
			return err
		}
		s.space()
		if s.next(',') {
			continue
		}
		if s.next(']') {
			s.depth--
			return nil
		}
		return errMalformed
	}
}

// key reads an object's key as encoding/json decodes it: its bytes in the body when they
// hold no escape and are valid UTF-8 (nearly always), else decoded.
func (s *scanner) key() ([]byte, error) {
	start := s.i
	raw, plain, err := s.str()
	if err != nil {
		return nil, err
	}
	if plain {
		return raw, nil
	}
	var k string
	if err := json.Unmarshal(s.b[start:s.i], &k); err != nil {
		return nil, errMalformed
	}
	return []byte(k), nil
}

// str reads a string from its opening quote: its bytes between the quotes, and whether they
// are the string itself (no escape, valid UTF-8).
func (s *scanner) str() ([]byte, bool, error) {
	start := s.i + 1
	plain, ascii := true, true
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			raw := s.b[start:j]
			return raw, plain && (ascii || utf8.Valid(raw)), nil
		case c == '\\':
			plain = false
			if j++; j >= len(s.b) {
				return nil, false, errMalformed
			}
			switch s.b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(s.b) || !isHex(s.b[j+1]) || !isHex(s.b[j+2]) || !isHex(s.b[j+3]) || !isHex(s.b[j+4]) {
					return nil, false, errMalformed
				}
				j += 4
			default:
				return nil, false, errMalformed
			}
		case c < 0x20:
			return nil, false, errMalformed
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false, errMalformed
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	s.next('-')
	switch {
	case s.next('0'):
	case s.i < len(s.b) && '1' <= s.b[s.i] && s.b[s.i] <= '9':
		s.digits()
	default:
		return errMalformed
	}
	if s.next('.') && s.digits() == 0 {
		return errMalformed
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		if s.digits() == 0 {
			return errMalformed
		}
	}
	return nil
}

// digits takes the digits that follow and says how many there were.
func (s *scanner) digits() int {
	n := 0
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

func (s *scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return errMalformed
	}
	s.i += len(lit)
	return nil
}
