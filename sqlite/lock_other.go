//go:build !unix

package sqlite

import "os"

// lockFile is a no-op where flock does not exist; SQLite's own locks still keep the file
// consistent.
func lockFile(path string) (*os.File, error) { return nil, nil }
