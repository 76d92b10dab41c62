//go:build unix

package sqlite

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/tablehouse/baccarat"
)

// lockFile takes the database's process lock: an exclusive flock on "<path>.lock", held
// until Close. A second process that opens the same file to write is refused before it
// reads or writes anything, with the first one's process id in the message. The kernel
// drops the lock when the process dies, so a crash never leaves it behind.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		who := strings.TrimSpace(string(b[:n]))
		if who != "" {
			who = " (process " + who + ")"
		}
		return nil, baccarat.Errorf(baccarat.CodeBusy, "another baccarat process%s is using %s: stop it first, or give this one its own database with --db", who, path)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return f, nil
}
