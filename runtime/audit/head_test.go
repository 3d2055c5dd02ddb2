package audit

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeadCutAtAnEventLine: a line about the log itself written in the
// middle of a file (the same file back after it could not be reached) has
// no file_start, so a head cut up to it is refused; one whose file_start
// was forged on a line in the middle breaks the chain there (edited).
func TestHeadCutAtAnEventLine(t *testing.T) {
	l, path := openLog(t, Options{SyncInterval: -1})
	require.NoError(t, l.Write(&Record{Tool: "a"}))
	require.NoError(t, l.Write(&Record{Event: EventReopened, Detail: "the same file is there again"}))
	require.NoError(t, l.Write(&Record{Tool: "b"}))
	require.NoError(t, l.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	ls := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	require.Len(t, ls, 3)
	assert.NotContains(t, ls[1], "file_start", "an event line in the middle of a file")

	v := verifyLines(ls[1:])
	require.NotNil(t, v.Break)
	assert.Contains(t, v.Break.Reason, "starts mid-chain")

	forged := append([]string{strings.Replace(ls[1], `"event":"reopened",`, `"event":"reopened","file_start":true,`, 1)}, ls[2])
	v = verifyLines(forged)
	require.NotNil(t, v.Break)
	assert.Equal(t, 1, v.Break.Line, "%v", v.Break)
	assert.Contains(t, v.Break.Reason, "edited")

	// file_start on a call line (no event) does not count either.
	v = verifyLines([]string{strings.Replace(ls[2], `"tool":"b",`, `"tool":"b","file_start":true,`, 1)})
	require.NotNil(t, v.Break)
	assert.Contains(t, v.Break.Reason, "starts mid-chain")
}

// TestVerifyThrough: the head of an earlier verification is found while
// the log only grew, and not once lines were cut from its end.
func TestVerifyThrough(t *testing.T) {
	orig := chainedLog(t, 6)
	through := func(ls []string, head string) *Verification {
		v, err := VerifyThrough([]Named{{Name: "a", R: strings.NewReader(strings.Join(ls, "\n") + "\n")}}, 0, head)
		require.NoError(t, err)
		require.Nil(t, v.Break)
		return v
	}
	for n := 1; n <= 6; n++ {
		head := verifyLines(orig[:n]).Head
		v := through(orig, head)
		require.NotNil(t, v.Through, "head of the first %d lines", n)
		assert.Equal(t, n, v.Through.Line)
		if n > 1 {
			assert.Nil(t, through(orig[:n-1], head).Through, "a tail cut of the line with the head went unnoticed")
		}
	}
	assert.Nil(t, through(orig, "").Through)
	assert.Nil(t, through(orig, "sha256:"+strings.Repeat("ab", 32)).Through)
}

func TestIsDigest(t *testing.T) {
	good := "sha256:" + strings.Repeat("0a", 32)
	assert.True(t, IsDigest(good))
	assert.True(t, IsDigest(genesis))
	for _, bad := range []string{"", "sha256:", good[:len(good)-1], good + "0", strings.ToUpper(good),
		"sha512:" + strings.Repeat("0a", 32), "sha256:" + strings.Repeat("0g", 32), " " + good} {
		assert.False(t, IsDigest(bad), "%q", bad)
	}
}
