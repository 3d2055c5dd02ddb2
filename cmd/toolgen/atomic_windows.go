//go:build windows

package main

import (
	"os"
	"path/filepath"
)

// writeAtomic replaces path with data: a temporary file beside it, synced,
// then renamed over it (os.Rename replaces an existing file on Windows).
// renameio, used elsewhere, does not support Windows.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
