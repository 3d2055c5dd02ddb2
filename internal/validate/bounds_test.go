package validate

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/nanogpt/toolgen/runtime/tool"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPatternLength: a pattern of MaxPatternLen bytes is accepted, one byte
// more is a 613 that says what to do instead; a compiled pattern costs
// memory in proportion to its length, and every reload validates it again.
func TestPatternLength(t *testing.T) {
	s := grepSpec()
	s.Args[0].Pattern = strings.Repeat("a", MaxPatternLen)
	require.NoError(t, specErr(&s))
	s.Args[0].Pattern += "a"
	errs := specErrors(t, specErr(&s))
	require.Len(t, errs, 1)
	assert.Equal(t, "arguments.pattern.pattern", errs[0].Field)
	assert.Contains(t, errs[0].Msg, fmt.Sprintf("pattern is %d bytes long, more than %d: list the allowed values in an enum", MaxPatternLen+1, MaxPatternLen))
}

// TestPatternCachesBounded: validating ever new patterns (a tools directory
// edited under --watch) does not grow the caches past maxCached entries,
// and a pattern forgotten by a reset still validates the same.
func TestPatternCachesBounded(t *testing.T) {
	s := grepSpec()
	for i := 0; i < 3*maxCached; i++ {
		s.Args[0].Pattern = "[0-9]{" + strconv.Itoa(i) + "}x"
		require.NoError(t, specErr(&s))
		PatternAdmitsLetter(s.Args[0].Pattern)
		assert.LessOrEqual(t, patterns.len(), maxCached)
		assert.LessOrEqual(t, admitsCache.len(), maxCached)
	}
	a := s.Args[0]
	a.Pattern = "[0-9]{3}x"
	assert.Nil(t, Value(&a, "123x", true))
	assert.NotNil(t, Value(&a, "12x", true))
}

// TestLongEnum: every value of a long enum is checked, each once (the
// membership scan is for a default; per enum value it made checking
// 60,000 values take 16 s).
func TestLongEnum(t *testing.T) {
	s := grepSpec()
	s.Args[0].Enum = make([]string, 50_000)
	for i := range s.Args[0].Enum {
		s.Args[0].Enum[i] = "v" + strconv.Itoa(i)
	}
	require.NoError(t, specErr(&s))
	s.Args[0].Enum[len(s.Args[0].Enum)-1] = "-v"
	errs := specErrors(t, specErr(&s))
	require.Len(t, errs, 1)
	assert.Equal(t, "arguments.pattern.enum.49999", errs[0].Field)
}

// BenchmarkSpecLongEnum reports the cost per enum value of checking a
// 20,000-value enum: flat in the enum's length, not proportional to it.
func BenchmarkSpecLongEnum(b *testing.B) {
	s := grepSpec()
	s.Args[0].Enum = make([]string, 20_000)
	for i := range s.Args[0].Enum {
		s.Args[0].Enum[i] = "v" + strconv.Itoa(i)
	}
	for b.Loop() {
		if _, err := Spec(&s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.Args[0].Enum)), "ns/value")
}

// specErr is Spec's error alone.
func specErr(s *tool.Spec) error {
	_, err := Spec(s)
	return err
}
