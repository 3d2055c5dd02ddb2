package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsageLines holds each command's usage line to the flags it registers:
// every flag its -h lists appears in the line, every flag the line names is
// one it registers, and the line has no trailing space. A flag added to a
// command without its usage line fails here.
func TestUsageLines(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	usageFlag := regexp.MustCompile(`(?:^|[\s\[|])--?([a-z][a-z0-9-]*)`)
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitOK, run([]string{c.name, "-h"}, &stdout, &stderr), "stderr: %s", stderr.String())
			help := stdout.String()
			first, _, _ := strings.Cut(help, "\n\n") // the usage line, however many lines it wraps over
			require.True(t, strings.HasPrefix(first, "usage: toolgen "+c.name), "help starts with %q", first)
			for _, l := range strings.Split(first, "\n") {
				assert.Equal(t, strings.TrimRight(l, " \t"), l, "trailing space in the usage line")
			}
			usage := c.usageLine()
			assert.Equal(t, "usage: "+usage, first)
			registered := map[string]bool{}
			for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
				registered[m[1]] = true
				re := regexp.MustCompile(`(?:^|[\s\[|])--?` + regexp.QuoteMeta(m[1]) + `(?:[\s\]=]|$)`)
				assert.Regexp(t, re, usage, "toolgen %s -h lists -%s but its usage line does not", c.name, m[1])
			}
			for _, m := range usageFlag.FindAllStringSubmatch(usage, -1) {
				assert.True(t, registered[m[1]], "the usage line of toolgen %s names --%s, which it does not register", c.name, m[1])
			}
		})
	}
}

// TestCommandsDescribed holds the two places that list every command to the
// commands the binary has: toolgen -h gives each command's first summary
// line, which must be a whole sentence (never cut mid-sentence), and the
// package doc names every command.
func TestCommandsDescribed(t *testing.T) {
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	doc, _, _ := strings.Cut(string(src), "package main")
	doc = strings.Join(strings.Fields(strings.ReplaceAll(doc, "//", " ")), " ")
	for _, c := range commands() {
		first, _, _ := strings.Cut(c.summary, "\n")
		assert.True(t, strings.HasSuffix(first, "."), "the first line of toolgen %s's summary, shown by toolgen -h, is not a whole sentence: %q", c.name, first)
		assert.Regexp(t, `\b`+c.name+`\b`, doc[strings.Index(doc, "The commands are"):], "the package doc's list of commands lacks %s", c.name)
	}
}
