package main

import (
	"bytes"
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
