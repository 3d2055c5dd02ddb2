//go:build unix

package trust

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkOwner refuses a store owned by another user.
func checkOwner(path string, info fs.FileInfo) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("trust: store %s is owned by uid %d, not by the user running toolgen", path, st.Uid)
	}
	return nil
}
