// Package migrations reads a store's embedded, ordered SQL migrations. Both stores keep
// their own SQL (the dialects differ) and share this reader.
package migrations

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// Migration is one file migrations/NNNN_name.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// Read returns the files migrations/*.sql of fsys in order, numbered 0001 upwards without a
// gap. A migration, once released, is never edited: a change is a new file. store names the
// store in errors.
func Read(fsys fs.FS, store string) ([]Migration, error) {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var ms []Migration
	for i, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil || v != i+1 {
			return nil, fmt.Errorf("%s: migration %s: want the number %04d", store, base, i+1)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: base, SQL: string(b)})
	}
	return ms, nil
}
