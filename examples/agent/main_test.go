package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRun runs the example on its own directory: the typed call lists the
// files, the JSON call counts, the bad value is a 614.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "."); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"file_list {depth: 1}:\nexit: 0\n",
		"./main.go",
		`count_matches {"pattern":"func","path":"main.go"}:` + "\nexit: 0\noutput: ",
		`error 614: slot "pattern": character ';' (U+003B SEMICOLON)`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "./tools/") {
		t.Errorf("depth 1 listed a subdirectory:\n%s", out.String())
	}
}

// TestDocCommand runs the example as its doc comment tells a reader to, from
// the repository's root with the -workspace given there: every call the
// example makes must then work (exit 0), not fail on a file it cannot find.
func TestDocCommand(t *testing.T) {
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^//\s+go run \./examples/agent -workspace (\S+)$`).FindSubmatch(src)
	require.NotNil(t, m, "main.go's doc comment has no 'go run ./examples/agent -workspace DIR' line")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, filepath.Join("..", "..", string(m[1]))))
	assert.Contains(t, out.String(), `count_matches {"pattern":"func","path":"main.go"}:`+"\nexit: 0\n")
	assert.NotContains(t, out.String(), "No such file")
}
