package web

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
)

//go:embed static openapi.json
var assets embed.FS

func (s *Server) static() http.Handler {
	sub, _ := fs.Sub(assets, "static")
	return http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
}

// page serves one of the embedded pages; the page reads the table id from its URL.
func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := assets.ReadFile("static/" + name)
		if err != nil {
			http.Error(w, "page missing from this build", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
	}
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
