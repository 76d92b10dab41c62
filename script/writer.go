package script

import (
	"bufio"
	"encoding/json"
	"strconv"

	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tablejson"
)

// writer writes JSON lines, each the bytes json.Encoder writes for it, and keeps the first
// error. Events, refusals and fundings are appended straight into the buffer (tablejson);
// slow writes every line with encoding/json, the reference.
type writer struct {
	bw   *bufio.Writer
	slow bool
	err  error
}

// write writes any value with encoding/json.
func (w *writer) write(v any) {
	if w.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		w.err = err
		return
	}
	_, w.err = w.bw.Write(append(b, '\n'))
}

// line writes a line appended to the buffer's free space (b), or keeps the error.
func (w *writer) line(b []byte, err error) {
	if err != nil {
		w.err = err
		return
	}
	_, w.err = w.bw.Write(append(b, '\n'))
}

func (w *writer) event(e *table.Event) {
	if w.slow {
		w.write(e)
	} else if w.err == nil {
		w.line(tablejson.AppendEvent(w.bw.AvailableBuffer(), e))
	}
}

func (w *writer) refuse(r Refusal) {
	if w.slow {
		w.write(r)
	} else if w.err == nil {
		w.line(r.appendJSON(w.bw.AvailableBuffer()), nil)
	}
}

func (w *writer) funded(f Funded) {
	if w.slow {
		w.write(f)
	} else if w.err == nil {
		w.line(f.appendJSON(w.bw.AvailableBuffer()), nil)
	}
}

// appendJSON appends what json.Marshal writes for the refusal.
func (r *Refusal) appendJSON(b []byte) []byte {
	b = strconv.AppendInt(append(b, `{"line":`...), int64(r.Line), 10)
	b = tablejson.AppendString(append(b, `,"refused":`...), r.Refused)
	b = tablejson.AppendString(append(b, `,"code":`...), string(r.Code))
	b = tablejson.AppendString(append(b, `,"message":`...), r.Message)
	return append(b, '}')
}

// appendJSON appends what json.Marshal writes for the funding.
func (f *Funded) appendJSON(b []byte) []byte {
	b = strconv.AppendInt(append(b, `{"line":`...), int64(f.Line), 10)
	b = tablejson.AppendString(append(b, `,"funded":`...), f.Funded)
	b = strconv.AppendInt(append(b, `,"amount":`...), int64(f.Amount), 10)
	b = strconv.AppendInt(append(b, `,"balance":`...), int64(f.Balance), 10)
	return append(b, '}')
}
