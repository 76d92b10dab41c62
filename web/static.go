package web

import (
	"embed"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

//go:embed static openapi.json
var assets embed.FS

// static serves the files under /static/ as assets.go prepared them: by their own name or
// their content-hashed one. No directory is listed.
func (s *Server) static() http.Handler {
	set := staticFiles()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := set.files[strings.TrimPrefix(r.URL.Path, "/static/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		a.serve(w, r)
	})
}

// page serves one of the embedded pages, loading its bundles; the page reads the table id
// from its URL.
func (s *Server) page(name string) http.HandlerFunc {
	a, ok := staticFiles().files[name]
	return func(w http.ResponseWriter, r *http.Request) {
		if !ok {
			http.Error(w, "page missing from this build", http.StatusNotFound)
			return
		}
		a.serve(w, r)
	}
}

// Cache-Control of a content-hashed URL and of the rest (revalidated each time by ETag).
const (
	cacheForever    = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
)

// serve answers GET or HEAD with the asset: gzipped to a client that takes gzip, 304 Not
// Modified to one that holds it already (If-None-Match). A Range is not served: the whole
// file is the answer, as HTTP allows.
func (a *asset) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	body, etag := a.body, `"`+a.hash+`"`
	if a.gz != nil {
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			body, etag = a.gz, `"`+a.hash+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if a.immutable {
		h.Set("Cache-Control", cacheForever)
	} else {
		h.Set("Cache-Control", cacheRevalidate)
	}
	if etagMatches(r.Header.Values("If-None-Match"), etag) {
		h.Del("Content-Encoding") // as net/http's own 304s: the headers of the stored answer stand
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", a.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// etagMatches: an If-None-Match list names etag (compared weakly, as RFC 9110 13.1.2 says
// for If-None-Match), or is "*".
func etagMatches(values []string, etag string) bool {
	for _, v := range values {
		for t := range strings.SplitSeq(v, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			if t == "*" || t == etag {
				return true
			}
		}
	}
	return false
}

// acceptsGzip: Accept-Encoding takes gzip (RFC 9110 12.5.3): "gzip" (or "x-gzip") with a
// q above 0, or, where gzip is not named, "*" with a q above 0. A q that is not a number
// from 0 to 1 counts as 0.
func acceptsGzip(values []string) bool {
	gz, star := -1.0, -1.0 // the q given to each; -1 where not named
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(part, ";")
			q := qvalue(params)
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gz = max(gz, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

// qvalue is the q of a coding's parameters (";q=0.5"): 1 when not given.
func qvalue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(q >= 0 && q <= 1) {
			return 0
		}
		return q
	}
	return 1
}

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	b, _ := assets.ReadFile("openapi.json")
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
