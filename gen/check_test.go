package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestConfigCheck: the extra rule runs on every valid Spec (and only on
// valid ones); its problems are located in the file like the validator's,
// sorted with the other files' problems, and no output is returned.
func TestConfigCheck(t *testing.T) {
	descs := []Descriptor{
		{Path: "b.tool.json", Data: []byte("{\"name\": \"b\",\n \"description\": \"d\", \"command\": \"ls\",\n \"examples\": [{\"args\": {}, \"argv\": [\"ls\", \"-l\"]}]}")},
		{Path: "a.tool.json", Data: []byte(`{"name": "Bad", "description": "d", "command": "ls"}`)},
		{Path: "c.tool.json", Data: []byte(`{"name": "c", "description": "d", "command": "ls"}`)},
	}
	var seen []string
	check := func(s tool.Spec) []error {
		seen = append(seen, s.Name)
		if len(s.Examples) > 0 {
			return []error{tool.SpecErrorf("examples.0", "example 0: wrong"), tool.SpecErrorf("name", "name taken")}
		}
		return nil
	}
	out, err := generate(Config{Package: "p", Check: check}, descs, 1)
	assert.Nil(t, out)
	require.Error(t, err)
	var lines []string
	for _, e := range tool.Flatten(err) {
		lines = append(lines, e.Error())
	}
	assert.Equal(t, []string{
		`a.tool.json:1:2: error 613: tool name "Bad" is not valid: want lower-case letters, digits and _, starting with a letter (^[a-z][a-z0-9_]*$)`,
		`b.tool.json:1:2: error 613: name taken`,
		`b.tool.json:3:15: error 613: example 0: wrong`,
	}, lines)
	assert.ElementsMatch(t, []string{"b", "c"}, seen, "Check runs on valid Specs only")

	out, err = generate(Config{Package: "p", Check: func(tool.Spec) []error { return nil }}, descs[2:], 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"c"}, out.Tools)
}
