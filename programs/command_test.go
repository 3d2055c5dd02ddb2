package programs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nanogpt/toolgen/programs"
)

// readings renders how the ExecTool reads words with the program words[0]
// names: "word:what" per token.
func readings(t *testing.T, words ...string) string {
	t.Helper()
	p := programs.Lookup(words[0])
	if p == nil {
		t.Fatalf("no program %q", words[0])
	}
	c := p.ReadCommand(words, words[0], "/bin/"+words[0], "/ws", nil)
	var out []string
	for _, r := range c.Readings() {
		out = append(out, fmt.Sprintf("%d:%s", r.Word, r.What))
	}
	return strings.Join(out, " ")
}

// TestCommandOptionWords checks the reading of the command fd's -x and
// -X run, as fd (clap) reads it: a separate command takes the words up to
// ";" as its arguments, an attached one is one word and fd's own options
// follow it, and -x=CMD runs CMD.
func TestCommandOptionWords(t *testing.T) {
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"fd", "-X", "echo", "-0x"}, `1:option -X with value "echo" 2:option value 3:command word`},
		{[]string{"fd", "--exec", "echo", "-0x", ";", "-H"}, `1:option --exec with value "echo" 2:option value 3:command word 5:option -H`},
		{[]string{"fd", "-X0", "-0x"}, `1:option -X with value "0" 2:option -0 2:option -x`},
		{[]string{"fd", "-x=sh", "p"}, `1:option -x with value "sh" 2:operand`},
		{[]string{"fd", "-Hx", "sed", "-n", "+", "-e", "1p"}, `1:option -H 1:option -x with value "sed" 2:option value 3:command word 4:command word 5:command word 6:command word`},
		{[]string{"fd", "-x"}, `1:option -x`},
	} {
		assert.Equal(t, c.want, readings(t, c.words...), "%q", c.words)
	}
}

// TestTopLevelAbbreviations: git takes no abbreviation before its
// subcommand ("unknown option: --config-e=x"), so the ExecTool reads none
// there, like the template check; after it, an abbreviation of a refused
// option is refused.
func TestTopLevelAbbreviations(t *testing.T) {
	git := programs.Lookup("git")
	for _, c := range []struct {
		words   []string
		refused bool
	}{
		{[]string{"git", "--config-e=x", "log"}, false},
		{[]string{"git", "--c=x", "log"}, false},
		{[]string{"git", "--config-env=x", "log"}, true},
		{[]string{"git", "-c", "x", "log"}, true},
		{[]string{"git", "log", "--ext-diff"}, true},
		{[]string{"git", "log", "--ext-d"}, true},
	} {
		r := git.ReadCommand(c.words, "git", "/usr/bin/git", "/ws", nil).Refusal()
		assert.Equal(t, c.refused, r != nil, "%q: %v", c.words, r)
	}
}
