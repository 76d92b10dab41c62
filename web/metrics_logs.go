package web

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
)

// CountLogs returns h counting each record it writes by level
// (baccarat_log_messages_total{level}). An ERROR is something a person must look at: a credit
// or rollback the operator refused for good (money owed, waiting for an admin), a lease lost,
// a round voided for a technical failure, an internal error; the alert rules watch them.
func (m *Metrics) CountLogs(h slog.Handler) slog.Handler {
	return &countingHandler{Handler: h, levels: levelCounters{m.logs.WithLabelValues("DEBUG"), m.logs.WithLabelValues("INFO"),
		m.logs.WithLabelValues("WARN"), m.logs.WithLabelValues("ERROR")}}
}

// levelCounters are the four levels' counters: a level between two counts as the lower.
type levelCounters [4]prometheus.Counter

func (c *levelCounters) of(l slog.Level) prometheus.Counter {
	switch {
	case l < slog.LevelInfo:
		return c[0]
	case l < slog.LevelWarn:
		return c[1]
	case l < slog.LevelError:
		return c[2]
	}
	return c[3]
}

type countingHandler struct {
	slog.Handler
	levels levelCounters
}

func (h *countingHandler) Handle(ctx context.Context, r slog.Record) error {
	h.levels.of(r.Level).Inc()
	return h.Handler.Handle(ctx, r)
}

func (h *countingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &countingHandler{Handler: h.Handler.WithAttrs(as), levels: h.levels}
}

func (h *countingHandler) WithGroup(name string) slog.Handler {
	return &countingHandler{Handler: h.Handler.WithGroup(name), levels: h.levels}
}
