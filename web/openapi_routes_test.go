package web_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestEveryAPIRouteIsDescribed: each /api route the server registers has its method and path
// in web/openapi.json, so the description (and the clients generated from it) never lag
// behind the server.
func TestEveryAPIRouteIsDescribed(t *testing.T) {
	src, err := os.ReadFile("server.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	b, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	routes := regexp.MustCompile(`HandleFunc\("(GET|POST|PUT|PATCH|DELETE) (/api/[^"]*)"`).FindAllStringSubmatch(string(src), -1)
	if len(routes) < 20 {
		t.Fatalf("found only %d routes in server.go: has the way routes are registered changed?", len(routes))
	}
	for _, r := range routes {
		method, path := strings.ToLower(r[1]), r[2]
		if path == "/api/openapi.json" {
			continue
		}
		if _, ok := doc.Paths[path][method]; !ok {
			t.Errorf("%s %s is served but not described in web/openapi.json", r[1], path)
		}
	}
}
