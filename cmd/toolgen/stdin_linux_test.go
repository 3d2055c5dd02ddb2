//go:build linux

package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestServeInputPipe: a stdin pipe is read through a new, non-blocking
// description of the same pipe (the runtime's poller waits on it): the
// data and the EOF are the pipe's, and the pipe's own description keeps
// its flags (its writer may share them).
func TestServeInputPipe(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	fd := int(r.Fd()) // os.File.Fd makes r's description blocking, as stdin's is
	in := serveInput(fd, r)
	require.NotSame(t, r, in, "a pipe was not opened again")
	defer in.Close()
	assert.NotZero(t, statusFlags(t, in)&unix.O_NONBLOCK, "the new description is blocking")
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	require.NoError(t, err)
	assert.Zero(t, flags&unix.O_NONBLOCK, "the pipe's own description was made non-blocking")

	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(in)
		got <- b
	}()
	time.Sleep(20 * time.Millisecond) // the reader waits on an empty pipe
	_, err = w.WriteString("{\"jsonrpc\":\"2.0\"}\n")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	select {
	case b := <-got:
		assert.Equal(t, "{\"jsonrpc\":\"2.0\"}\n", string(b))
	case <-time.After(10 * time.Second):
		t.Fatal("no EOF after the writer closed the pipe")
	}
}

// TestServeInputNotPipe: stdin that is not a pipe (a file, the null
// device) is read as it is.
func TestServeInputNotPipe(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "requests"))
	require.NoError(t, err)
	defer f.Close()
	assert.Same(t, f, serveInput(int(f.Fd()), f))
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	assert.Same(t, null, serveInput(int(null.Fd()), null))
}

// statusFlags are f's file status flags, read without os.File.Fd (which
// would make f blocking).
func statusFlags(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	require.NoError(t, err)
	var flags int
	var ferr error
	require.NoError(t, rc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }))
	require.NoError(t, ferr)
	return flags
}
