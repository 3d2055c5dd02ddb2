package base_test

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/tool"
)

func TestSchemaKeepsOrderAndRules(t *testing.T) {
	got := string(base.Schema(&listSpec))
	want := `{"type":"object","properties":{` +
		`"mode":{"type":"string","description":"mode","default":"fast","enum":["fast","slow"]},` +
		`"count":{"type":"integer","description":"count","minimum":0},` +
		`"ratio":{"type":"number","description":"ratio","minimum":0},` +
		`"path":{"type":"string","description":"path","default":"."},` +
		`"suffix":{"type":"string","description":"suffix","pattern":"^(?:[a-z]+)$"}},` +
		`"required":["count"],"additionalProperties":false}`
	assert.Equal(t, want, got)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(got), &v))
}

func TestSchemaNoArgs(t *testing.T) {
	spec := listSpec
	spec.Args = nil
	assert.Equal(t, `{"type":"object","properties":{},"additionalProperties":false}`, string(base.Schema(&spec)))
}

// TestSchemaStatesTheValueRule: for string and text slots in every kind of
// place, the pattern the schema states is never stricter than the 614 (a
// value it refuses, the call refuses too), and it already refuses what a
// pattern can see: controls, and quotes, operators, '@' and a leading dash
// where the place refuses them.
func TestSchemaStatesTheValueRule(t *testing.T) {
	spec := tool.Spec{Name: "s", Description: "d", Command: "grep -n -e {opt} --regexp={att} -f {file} {word} {plain} -- {after}",
		Args: []tool.Arg{
			{Name: "opt", Type: tool.Text, Description: "d", Required: true},
			{Name: "att", Type: tool.Text, Description: "d", Required: true},
			{Name: "file", Type: tool.String, Description: "d", Required: true},
			{Name: "word", Type: tool.Text, Description: "d", Required: true},
			{Name: "plain", Type: tool.String, Description: "d", Required: true},
			{Name: "after", Type: tool.Text, Description: "d", Required: true},
		}}
	tm, err := validate.Spec(&spec)
	require.NoError(t, err)
	places := validate.Places(&spec, tm)
	schema := base.ArgsSchema(&spec)
	patterns := map[string]*regexp.Regexp{}
	for _, a := range spec.Args {
		require.NotEmpty(t, schema.Properties[a.Name].Pattern, a.Name)
		patterns[a.Name] = regexp.MustCompile(schema.Properties[a.Name].Pattern)
		for _, v := range []string{"a", "a b", "it's", "a && b", "-v", "@x", "\t", "a\nb", "\u0085", "\u200b", "；", "x := <-ch", "", "--"} {
			if !patterns[a.Name].MatchString(v) && validate.ValueAt(&a, v, places[a.Name]) == nil {
				t.Errorf("slot %s: the schema's pattern %s refuses %q, which the call accepts", a.Name, patterns[a.Name], v)
			}
		}
	}
	for _, tc := range []struct {
		slot, value string
		ok          bool
	}{
		{"opt", "-v x", true}, {"opt", "a && b", true}, {"opt", "@x", false}, {"opt", "a\tb", false},
		{"att", "-v", true}, {"att", "@x", true}, {"att", "\u009b", false},
		{"word", "a b", true}, {"word", "a && b", false}, {"word", "-v", false}, {"word", "it's", false},
		{"plain", "a b", false}, {"plain", "-v", false}, {"plain", "a;b", false}, {"plain", "a.b", true},
		{"after", "a && b", true}, {"after", "@x", false}, {"after", "-v", false},
	} {
		if got := patterns[tc.slot].MatchString(tc.value); got != tc.ok {
			t.Errorf("slot %s: the schema's pattern %s takes %q: %v, want %v", tc.slot, patterns[tc.slot], tc.value, got, tc.ok)
		}
	}
}
