package base_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// TestFilesInOptionValues: curl opens the file a value names after '@'
// (-d, --data-urlencode NAME@FILE), -F's "=@" and "=<", -T's, -o's, so
// whatever the slot's type those files must be inside the workspace: a
// string slot's "@/etc/passwd" would send the file to the tool's host even
// with --confine off. Data that only holds an '@' passes.
func TestFilesInOptionValues(t *testing.T) {
	k := workspace(t, map[string]string{"body.json": "{}\n"})
	str := func(name string) tool.Arg {
		return tool.Arg{Name: name, Type: tool.String, Description: "d", Required: true}
	}
	post, err := base.New(tool.Spec{Name: "post", Description: "d", Command: "curl -sS -d {data} --data-urlencode q={q} https://example.com/api",
		Hosts: []string{"example.com:443"}, Args: []tool.Arg{str("data"), str("q")}}, k)
	require.NoError(t, err)
	for _, c := range []struct{ args, refused string }{
		{`{"data":"@/etc/passwd","q":"x"}`, `slot "data": curl opens the file "/etc/passwd" named in -d "@/etc/passwd"`},
		{`{"data":"@../secret","q":"x"}`, `slot "data": curl opens the file "../secret"`},
		{`{"data":"a=1","q":"x@/etc/passwd"}`, ""}, // q=…: data after '='
		{`{"data":"@body.json","q":"a@b.example"}`, ""},
		{`{"data":"email=a@b.example","q":"x"}`, ""},
		{`{"data":"@-","q":"x"}`, ""},
	} {
		_, err := post.Argv(json.RawMessage(c.args))
		if c.refused == "" {
			assert.NoError(t, err, c.args)
			continue
		}
		require.Error(t, err, c.args)
		assert.Contains(t, err.Error(), "error 614: "+c.refused, c.args)
	}
	upload, err := base.New(tool.Spec{Name: "upload", Description: "d", Command: "curl -sS -T {file} -o {out} -F part=@{part} https://example.com/",
		Hosts: []string{"example.com:443"}, Args: []tool.Arg{str("file"), str("out"), str("part")}}, k)
	require.NoError(t, err)
	for args, refused := range map[string]string{
		`{"file":"/etc/passwd","out":"o","part":"p"}`:      `slot "file": curl opens the file "/etc/passwd" named in -T`,
		`{"file":"f","out":"/root/.bashrc","part":"p"}`:    `slot "out": curl opens the file "/root/.bashrc" named in -o`,
		`{"file":"f","out":"o","part":"../../etc/shadow"}`: `slot "part": curl opens the file "../../etc/shadow" named in -F`,
		`{"file":"f","out":"o","part":"p"}`:                "",
	} {
		_, err := upload.Argv(json.RawMessage(args))
		if refused == "" {
			assert.NoError(t, err, args)
			continue
		}
		require.Error(t, err, args)
		assert.Contains(t, err.Error(), "error 614: "+refused, args)
	}
}
