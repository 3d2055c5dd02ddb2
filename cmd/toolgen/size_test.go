package main

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"0": 0, "none": 0, "NONE": 0, "1048576": 1 << 20, "512MiB": 512 << 20, "1GiB": 1 << 30, "1gib": 1 << 30,
		"1G": 1 << 30, "64m": 64 << 20, "2k": 2048, "1.5GiB": 3 << 29, "200MB": 200e6, "1GB": 1e9, "10B": 10,
		" 16 MiB ": 16 << 20, "8TiB": 8 << 40, "0.5KiB": 512,
	} {
		got, err := parseSize(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, got, in)
		}
	}
	for _, in := range []string{"", "MiB", "-1", "-1GiB", "+5", "1e9", "1E3MiB", "inf", "NaN", "0x10", "1_000", "1 000",
		"1.5", "1.5B", "12XB", "GiB5", "1GiBB", "9223372036854775808", "8EiB", "9000000TiB", "1e400GiB", "１GiB"} {
		_, err := parseSize(in)
		assert.Error(t, err, "%q", in)
	}
	max := strconv.FormatInt(math.MaxInt64, 10)
	got, err := parseSize(max)
	require.NoError(t, err)
	assert.Equal(t, int64(math.MaxInt64), got)
}

func TestSizeFlag(t *testing.T) {
	var f sizeFlag
	assert.Equal(t, "", f.String())
	require.NoError(t, f.Set("1GiB"))
	assert.Equal(t, "1073741824", f.String())
	assert.True(t, f.set)
	assert.ErrorContains(t, f.Set("lots"), `invalid size "lots": want a number of bytes with an optional unit`)
}

// FuzzParseSize: a size is never negative, and a plain byte count reads as
// itself.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"512MiB", "1.5G", "none", "-1", "9223372036854775807", "1e3", "0.0000001KiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("parseSize(%q) = %d, negative", s, n)
		}
		if v, err := strconv.ParseInt(s, 10, 64); err == nil && v >= 0 && v != n {
			t.Fatalf("parseSize(%q) = %d, want %d", s, n, v)
		}
	})
}
