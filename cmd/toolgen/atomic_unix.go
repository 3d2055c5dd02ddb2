//go:build !windows

package main

import "github.com/google/renameio/v2"

// writeAtomic replaces path with data: a temporary file beside it, synced,
// renamed over it; an existing file keeps its mode, a new one gets 0644
// less the umask.
func writeAtomic(path string, data []byte) error {
	return renameio.WriteFile(path, data, 0o644, renameio.WithExistingPermissions())
}
