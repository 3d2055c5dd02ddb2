package base_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
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
