// Package regular reads files that must be regular files — a generated
// file, a token file — from places a repository may have planted something
// else (descriptor files have their own reader, package descdir, with the
// same rules and one for symlinks): a FIFO (whose open would wait for a writer for ever), a
// device (a symlink to /dev/zero, endless), or a file far too large.
package regular

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is Read's error for a file that is no regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is Read's error for a file larger than the bound.
var ErrTooLarge = errors.New("larger than the limit")

// Read reads the file at path (symlinks followed) when it is a regular file
// of at most max bytes (max < 0: any size). The open does not block (a FIFO
// opens at once), the type is judged on the file opened, and reading stops
// one byte past max. The FileInfo is the opened file's, also with
// ErrNotRegular and ErrTooLarge; other errors are the os package's.
func Read(path string, max int64) ([]byte, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, info, ErrNotRegular
	}
	var r io.Reader = f
	if max >= 0 {
		r = io.LimitReader(f, max+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, info, err
	}
	if max >= 0 && int64(len(data)) > max {
		return nil, info, ErrTooLarge
	}
	return data, info, nil
}
