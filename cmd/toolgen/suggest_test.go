package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClosest(t *testing.T) {
	flags := []string{"tools", "workspace", "allow-tools-in-workspace", "exec-allow", "only", "no-builtins", "json", "top"}
	for _, tc := range []struct{ name, want string }{
		{"tool", "tools"},
		{"workspce", "workspace"},
		{"allow-tool-in-workspace", "allow-tools-in-workspace"},
		{"tp", "top"},
		{"jsn", "json"},
		{"builtins", "no-builtins"}, // held by a flag
		{"v", ""},                   // too short to guess
		{"x", ""},
		{"no-such-flag", ""},
		{"onl", "only"},
		{"js", ""}, // two edits from json: too far for a short name
	} {
		assert.Equal(t, tc.want, closest(tc.name, flags), "%q", tc.name)
	}
}

// TestWarnTokenFile: a token file others can read, or one inside the
// workspace (where every tool can read it), is warned about; a private one
// outside is not.
func TestWarnTokenFile(t *testing.T) {
	workspace := t.TempDir()
	outside := t.TempDir()
	write := func(path string, mode os.FileMode) string {
		require.NoError(t, os.WriteFile(path, []byte("0123456789abcdef0123\n"), mode))
		require.NoError(t, os.Chmod(path, mode)) // umask
		return path
	}
	for _, tc := range []struct {
		name     string
		file     string
		readable bool
		inside   bool
	}{
		{"private outside", write(filepath.Join(outside, "private"), 0o600), false, false},
		{"owner read-only outside", write(filepath.Join(outside, "ro"), 0o400), false, false},
		{"world-readable", write(filepath.Join(outside, "world"), 0o644), true, false},
		{"group-readable", write(filepath.Join(outside, "group"), 0o640), true, false},
		{"inside the workspace", write(filepath.Join(workspace, "token"), 0o600), false, true},
		{"both", write(filepath.Join(workspace, "both"), 0o604), true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			warnTokenFile(&cmdEnv{stdout: &bytes.Buffer{}, stderr: &stderr}, tc.file, workspace)
			out := stderr.String()
			assert.Equal(t, tc.readable, bytes.Contains(stderr.Bytes(), []byte("is readable by other users")), out)
			assert.Equal(t, tc.inside, bytes.Contains(stderr.Bytes(), []byte("is inside the workspace")), out)
		})
	}
	// Through a symbolic link to the workspace too.
	link := filepath.Join(outside, "ws")
	require.NoError(t, os.Symlink(workspace, link))
	var stderr bytes.Buffer
	warnTokenFile(&cmdEnv{stdout: &bytes.Buffer{}, stderr: &stderr}, filepath.Join(link, "token"), workspace)
	assert.Contains(t, stderr.String(), "is inside the workspace")
	// No --token-file (the environment's token): nothing to say.
	stderr.Reset()
	warnTokenFile(&cmdEnv{stdout: &bytes.Buffer{}, stderr: &stderr}, "", workspace)
	assert.Empty(t, stderr.String())
}

// TestExampleArgs: the JSON advice names the tool's first required slot
// (else its first slot) with a placeholder of its type.
func TestExampleArgs(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"path":{"type":"string"},"pattern":{"type":"string"}},"required":["pattern"]}`, `{"pattern":"..."}`},
		{`{"type":"object","properties":{"lines":{"type":"integer"},"file":{"type":"string"}},"required":["lines"]}`, `{"lines":5}`},
		{`{"type":"object","properties":{"z":{"type":"number"},"b":{"type":"string"}}}`, `{"b":"..."}`},
		{`{"type":"object","properties":{"say \"hi\"":{"type":"string"}}}`, `{"say \"hi\"":"..."}`},
		{`{"type":"object","properties":{}}`, `{}`},
		{`not json`, `{}`},
	} {
		got := exampleArgs(json.RawMessage(tc.schema))
		assert.Equal(t, tc.want, got, tc.schema)
		assert.True(t, json.Valid([]byte(got)), got)
	}
}
