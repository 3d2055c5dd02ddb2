// Package toolgen_test checks README.md and the Makefile against the
// repository and the toolgen binary, so the front door cannot drift: every
// command and flag the binary has is in the README's CLI reference, old
// flag spellings and references to documents that are not in the
// repository do not come back, and both test commands are stated.
package toolgen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}

// section returns the README text under "## title", up to the next "## ".
func section(t *testing.T, readme, title string) string {
	t.Helper()
	start := strings.Index(readme, "\n## "+title+"\n")
	require.GreaterOrEqual(t, start, 0, "README has no section %q", title)
	rest := readme[start+len(title)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// TestReadmeText: the README states both test commands, cites no section
// of a design document the repository does not ship, and neither it nor
// the Makefile uses generate's old -dir spelling.
func TestReadmeText(t *testing.T) {
	readme := readFile(t, "README.md")
	makefile := readFile(t, "Makefile")
	twoCommands := section(t, readme, "Two commands")
	for _, cmd := range []string{"make test ", "make test-all"} {
		assert.True(t, strings.Contains(twoCommands, cmd), "README's Two commands section does not state %q", cmd)
	}
	for _, target := range []string{"demo", "test", "test-all", "check", "bench", "fuzz"} {
		assert.Regexp(t, `(?m)^`+regexp.QuoteMeta(target)+`:`, makefile, "the README names make %s", target)
	}
	if _, err := os.Stat("DESIGN.md"); os.IsNotExist(err) {
		for _, ref := range []string{"§", "DESIGN.md"} {
			assert.False(t, strings.Contains(readme, ref), "README cites %q, and DESIGN.md is not in the repository", ref)
		}
	}
	old := regexp.MustCompile(`generate[^\n]*\s-dir\b`)
	assert.Empty(t, old.FindAllString(readme, -1), "README uses generate's old -dir spelling; write --tools")
	assert.Empty(t, old.FindAllString(makefile, -1), "Makefile uses generate's old -dir spelling; write --tools")
}

// slug is GitHub's anchor for a heading: lower case, spaces to hyphens,
// everything but letters, digits, hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestReadmeAnchors: every link to a section of the README (#anchor) leads
// to a heading that exists.
func TestReadmeAnchors(t *testing.T) {
	readme := readFile(t, "README.md")
	anchors := map[string]bool{}
	prose := regexp.MustCompile("(?s)\n```.*?\n```").ReplaceAllString(readme, "") // "# comment" in a sh block is no heading
	for _, m := range regexp.MustCompile(`(?m)^#{1,6} (.+)$`).FindAllStringSubmatch(prose, -1) {
		anchors[slug(m[1])] = true
	}
	require.True(t, anchors["the-cli"], "slug is wrong: no anchor for ## The CLI")
	links := regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(readme, -1)
	require.NotEmpty(t, links)
	for _, l := range links {
		assert.True(t, anchors[l[1]], "README links to #%s, and no heading has that anchor", l[1])
	}
}

// TestReadmeCLIReference builds toolgen and checks that the README's CLI
// section names every command of "toolgen -h" and every flag of each
// "toolgen CMD -h".
func TestReadmeCLIReference(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds the toolgen binary; runs in make test-all")
	}
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "toolgen")
	out, err := exec.Command(goBin, "build", "-o", bin, "./cmd/toolgen").CombinedOutput()
	require.NoError(t, err, "%s", out)
	help := func(args ...string) string {
		out, err := exec.Command(bin, args...).CombinedOutput()
		require.NoError(t, err, "toolgen %s: %s", strings.Join(args, " "), out)
		return string(out)
	}

	cli := section(t, readFile(t, "README.md"), "The CLI")
	top := help("-h")
	commands := regexp.MustCompile(`(?m)^\t([a-z]+)\s{2,}\S`).FindAllStringSubmatch(top, -1)
	require.Greater(t, len(commands), 5, "no commands found in toolgen -h:\n%s", top)
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	for _, c := range commands {
		name := c[1]
		assert.True(t, strings.Contains(cli, "`toolgen "+name), "README's CLI table lacks toolgen %s", name)
		for _, f := range flagLine.FindAllStringSubmatch(help(name, "-h"), -1) {
			re := regexp.MustCompile(`(^|[^\w-])--?` + regexp.QuoteMeta(f[1]) + `([^\w-]|$)`)
			assert.True(t, re.MatchString(cli), "README's CLI section lacks toolgen %s's flag -%s", name, f[1])
		}
	}
}
