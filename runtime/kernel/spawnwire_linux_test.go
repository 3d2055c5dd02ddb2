//go:build linux

package kernel

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// FuzzDecodeMsg: whatever bytes arrive on the socket, the decoder neither
// panics nor takes more than it was given, nor hands out more descriptors
// than the bound, and a message it decodes encodes back to what it took.
func FuzzDecodeMsg(f *testing.F) {
	good, _ := encodeMsg(envelope{ID: 7, Op: opStart, NFD: 2, Body: json.RawMessage(`{"Spec":{}}`)})
	huge := binary.BigEndian.AppendUint32(nil, maxWireMsg+1)
	for _, seed := range [][]byte{good, good[:5], huge, {0, 0, 0, 2, '{', '}'}, {0, 0, 0, 1, '['}, []byte("\x00\x00\x00\x0a{\"nfd\":-1}"), []byte("\x00\x00\x00\x0b{\"nfd\":99}x"), nil} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, used, err := decodeMsg(b)
		if err != nil || used == 0 {
			assert.Zero(t, used)
			return
		}
		require.LessOrEqual(t, used, len(b))
		assert.True(t, e.NFD >= 0 && e.NFD <= maxWireFDs, "nfd %d", e.NFD)
		again, err := encodeMsg(e)
		require.NoError(t, err)
		e2, used2, err := decodeMsg(again)
		require.NoError(t, err)
		assert.Equal(t, len(again), used2)
		assert.Equal(t, e.ID, e2.ID)
		assert.Equal(t, e.Op, e2.Op)
		assert.Equal(t, e.NFD, e2.NFD)
	})
}

// TestWireCarriesDescriptors: messages and their descriptors arrive in
// order across a real socket pair, descriptors close-on-exec, including a
// message far larger than one read.
func TestWireCarriesDescriptors(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	require.NoError(t, err)
	a, err := newWire(fds[0], "a")
	require.NoError(t, err)
	defer a.close()
	b, err := newWire(fds[1], "b")
	require.NoError(t, err)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	big := make([]string, 20000)
	for i := range big {
		big[i] = "argument-of-some-length"
	}
	go func() {
		_ = a.send(1, "x", big, w)
		_ = a.send(2, "y", "small", r, w)
		a.close()
	}()
	e, files, err := b.recv()
	require.NoError(t, err)
	assert.Equal(t, uint64(1), e.ID)
	require.Len(t, files, 1)
	var got []string
	require.NoError(t, json.Unmarshal(e.Body, &got))
	assert.Equal(t, big, got)
	flags, err := unix.FcntlInt(files[0].Fd(), unix.F_GETFD, 0)
	require.NoError(t, err)
	assert.NotZero(t, flags&unix.FD_CLOEXEC, "a received descriptor is inherited by what the receiver starts")
	e, files2, err := b.recv()
	require.NoError(t, err)
	assert.Equal(t, uint64(2), e.ID)
	assert.Len(t, files2, 2)
	closeFiles(append(files, files2...))
	_, _, err = b.recv()
	assert.ErrorIs(t, err, errWireClosed)
}
