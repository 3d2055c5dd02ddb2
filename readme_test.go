// Package toolgen_test checks README.md, docs/*.md and the Makefile against
// the repository and the toolgen binary, so the front door and the manual
// cannot drift: every command and flag the binary has is in the CLI
// reference (docs/cli.md), every link leads somewhere, the README stays a
// short front door that links every document, old flag spellings and
// references to documents that are not in the repository do not come
// back, and both test commands are stated.
package toolgen_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/base"
)

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(data)
}

// section returns a markdown text's part under "## title", up to the next
// "## ".
func section(t *testing.T, text, title string) string {
	t.Helper()
	start := strings.Index(text, "\n## "+title+"\n")
	require.GreaterOrEqual(t, start, 0, "no section %q", title)
	rest := text[start+len(title)+5:]
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
		for _, doc := range documents(t) {
			text := readFile(t, doc)
			for _, ref := range []string{"§", "DESIGN.md"} {
				assert.False(t, strings.Contains(text, ref), "%s cites %q, and DESIGN.md is not in the repository", doc, ref)
			}
		}
	}
	old := regexp.MustCompile(`generate[^\n]*\s-dir\b`)
	for _, doc := range documents(t) {
		assert.Empty(t, old.FindAllString(readFile(t, doc), -1), "%s uses generate's old -dir spelling; write --tools", doc)
	}
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

// documents returns README.md and every docs/*.md, the pages a reader of
// the repository follows links between.
func documents(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, docs, "docs/ holds no *.md: the manual lives there")
	return append([]string{"README.md"}, docs...)
}

// anchors returns the anchors of a markdown text's headings; a "# comment"
// inside a fenced block is no heading.
func anchors(text string) map[string]bool {
	found := map[string]bool{}
	prose := regexp.MustCompile("(?s)\n```.*?\n```").ReplaceAllString(text, "")
	for _, m := range regexp.MustCompile(`(?m)^#{1,6} (.+)$`).FindAllStringSubmatch(prose, -1) {
		found[slug(m[1])] = true
	}
	return found
}

// localLink matches a markdown link that leads into the repository: an
// optional relative path and an optional #anchor (no scheme, no mailto).
var localLink = regexp.MustCompile(`\]\(([^):#\s]*)(?:#([^)\s]+))?\)`)

// TestDocsLinks: every link of README.md and docs/*.md that stays in the
// repository leads to a file that exists and, with an #anchor, to a
// heading of that file.
func TestDocsLinks(t *testing.T) {
	require.True(t, anchors(readFile(t, filepath.Join("docs", "cli.md")))["the-cli"],
		"slug is wrong: no anchor for ## The CLI")
	checked := 0
	for _, doc := range documents(t) {
		for _, l := range localLink.FindAllStringSubmatch(readFile(t, doc), -1) {
			target, anchor := doc, l[2]
			if l[1] != "" {
				target = filepath.Join(filepath.Dir(doc), l[1])
				_, err := os.Stat(target)
				if !assert.NoError(t, err, "%s links to %s, which is not in the repository", doc, l[1]) {
					continue
				}
			}
			checked++
			if anchor == "" {
				continue
			}
			require.Equal(t, ".md", filepath.Ext(target), "%s links to #%s of %s, which is not markdown", doc, anchor, l[1])
			assert.True(t, anchors(readFile(t, target))[anchor], "%s links to %s#%s, and no heading there has that anchor", doc, target, anchor)
		}
	}
	assert.Greater(t, checked, 20, "fewer links than the docs have: the link pattern is wrong")
}

// TestReadmeFrontDoor: the README stays a front door of at most 300 lines
// and links every document of docs/, so nothing there is unreachable.
func TestReadmeFrontDoor(t *testing.T) {
	readme := readFile(t, "README.md")
	lines := strings.Count(readme, "\n")
	assert.LessOrEqual(t, lines, 300, "README.md has %d lines: it is the front door; move detail to docs/", lines)
	for _, doc := range documents(t)[1:] {
		assert.Contains(t, readme, "]("+filepath.ToSlash(doc)+")", "README does not link %s", doc)
	}
}

// TestDocsJSONBlocks: every ```json block of README.md and docs/*.md is
// JSON (one value, or one value a line, as JSON-RPC and audit lines are),
// and a block that is a descriptor (it has a "command") is one the
// validator accepts, examples included, exactly as toolgen check would.
func TestDocsJSONBlocks(t *testing.T) {
	blockRE := regexp.MustCompile("(?s)\n```json\n(.*?)\n```\n")
	descriptors := 0
	k := kerneltest.New(t, nil)
	for _, doc := range documents(t) {
		for i, m := range blockRE.FindAllStringSubmatch(readFile(t, doc), -1) {
			block := m[1]
			name := fmt.Sprintf("%s, json block %d", doc, i+1)
			if !json.Valid([]byte(block)) {
				for _, line := range strings.Split(block, "\n") {
					assert.True(t, json.Valid([]byte(line)), "%s: not JSON, nor JSON lines: %s", name, line)
				}
				continue
			}
			var fields map[string]json.RawMessage
			if json.Unmarshal([]byte(block), &fields) != nil || fields["command"] == nil {
				continue
			}
			descriptors++
			spec, _, _, err := validate.Descriptor(name, []byte(block))
			if !assert.NoError(t, err, "%s is a descriptor toolgen check refuses", name) {
				continue
			}
			b, err := base.New(spec, k)
			require.NoError(t, err, name)
			assert.Empty(t, b.CheckExamples(), "%s: its examples do not hold", name)
		}
	}
	assert.GreaterOrEqual(t, descriptors, 2, "the README's and docs/descriptors.md's descriptors")
}

// TestReadmeCLIReference builds toolgen and checks that the CLI reference
// (docs/cli.md, "The CLI") names every command of "toolgen -h" and every
// flag of each "toolgen CMD -h".
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

	cli := section(t, readFile(t, filepath.Join("docs", "cli.md")), "The CLI")
	top := help("-h")
	commands := regexp.MustCompile(`(?m)^\t([a-z]+)\s{2,}\S`).FindAllStringSubmatch(top, -1)
	require.Greater(t, len(commands), 5, "no commands found in toolgen -h:\n%s", top)
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	for _, c := range commands {
		name := c[1]
		assert.True(t, strings.Contains(cli, "`toolgen "+name), "docs/cli.md's CLI table lacks toolgen %s", name)
		for _, f := range flagLine.FindAllStringSubmatch(help(name, "-h"), -1) {
			re := regexp.MustCompile(`(^|[^\w-])--?` + regexp.QuoteMeta(f[1]) + `([^\w-]|$)`)
			assert.True(t, re.MatchString(cli), "docs/cli.md's CLI section lacks toolgen %s's flag -%s", name, f[1])
		}
	}
}

// TestReadmeFuzzCount holds the README's count of fuzz targets to the
// number of Fuzz functions make fuzz-smoke runs (every package of this
// module; the adapter modules are counted apart).
func TestReadmeFuzzCount(t *testing.T) {
	m := regexp.MustCompile(`(\d+) fuzz targets`).FindStringSubmatch(readFile(t, "README.md"))
	require.NotNil(t, m, "README.md no longer says how many fuzz targets make test-all runs")
	fuzz := regexp.MustCompile(`(?m)^func Fuzz[A-Z0-9_]\w*\(`)
	n := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || path == "adapters") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n += len(fuzz.FindAll(data, -1))
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(n), m[1], "README.md says %s fuzz targets; the module has %d", m[1], n)
}
