package main

import (
	"bytes"
	"flag"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An alias sets the same value as its flag and is left out of the help, so
// that the help shows one spelling (generate's -dir is --tools).
func TestAliasFlag(t *testing.T) {
	fs := flag.NewFlagSet("toolgen x", flag.ContinueOnError)
	var out bytes.Buffer
	fs.SetOutput(&out)
	dir := fs.String("tools", ".", "directory of descriptors")
	aliasFlag(fs, "dir", "tools")
	require.NoError(t, fs.Parse([]string{"-dir", "a"}))
	assert.Equal(t, "a", *dir)
	require.NoError(t, fs.Parse([]string{"--tools", "b"}))
	assert.Equal(t, "b", *dir)

	printDefaults(fs)
	assert.Contains(t, out.String(), "-tools string")
	assert.Contains(t, out.String(), `(default ".")`, "the default as registered, not the value parsed since")
	assert.NotContains(t, out.String(), "-dir")
	assert.Panics(t, func() { aliasFlag(fs, "d", "nosuch") })
}

func TestNameList(t *testing.T) {
	var l nameList
	require.NoError(t, l.Set(" ls, git,,"))
	require.NoError(t, l.Set("wc"))
	assert.Equal(t, nameList{"ls", "git", "wc"}, l)
	assert.Equal(t, "ls,git,wc", l.String())
}
