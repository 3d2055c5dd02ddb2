package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
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
