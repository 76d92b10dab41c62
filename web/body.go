package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"

	"github.com/tablehouse/baccarat"
)

// maxBody is the most a request body may hold: a wager is under 200 bytes, the largest
// body (a table's configuration) a few kilobytes.
const maxBody = 64 << 10

// readJSON reads a request's body, at most maxBody bytes (413 too_large beyond), and decodes
// it into v by decodeBody's rules.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return baccarat.Errorf(baccarat.CodeTooLarge, "the body is over %d bytes: this endpoint takes one small JSON object", maxBody)
	}
	if err != nil {
		return baccarat.Errorf(baccarat.CodeBadRequest, "the body could not be read: %v", err)
	}
	return decodeBody(body, v)
}

// decodeBody decodes a body that must be exactly one JSON object of v's type, the one
// decoder every route's body goes through: each key once and spelt exactly as its field
// (strictKeys), no unknown fields, nothing after the object. Every refusal is bad_request.
func decodeBody(body []byte, v any) error {
	if t := bytes.TrimSpace(body); len(t) == 0 || t[0] != '{' {
		return baccarat.Errorf(baccarat.CodeBadRequest, "the body must be one JSON object")
	}
	scan := strictKeys(body, reflect.TypeOf(v))
	var be *baccarat.Error
	if errors.As(scan, &be) {
		return be
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.As(err, &be) {
			return be
		}
		return baccarat.Errorf(baccarat.CodeBadRequest, "the body is not the JSON this endpoint takes: %s", baccarat.Truncate(err.Error(), 200))
	}
	if _, err := dec.Token(); err != io.EOF {
		return baccarat.Errorf(baccarat.CodeBadRequest, "the body holds more than one JSON value: send exactly one object")
	}
	if scan != nil {
		// encoding/json took what the scan could not read: refuse rather than let keys
		// through unchecked (the fuzz test holds the two to the same grammar).
		return baccarat.Errorf(baccarat.CodeBadRequest, "the body is not valid JSON")
	}
	return nil
}
