//go:build linux

package serving

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nanogpt/toolgen/internal/kerneltest"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/mcp"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// commandServer serves one command tool, name, running command (its slots
// required strings).
func commandServer(t *testing.T, name, command string, slots ...string) *mcp.Server {
	t.Helper()
	spec := tool.Spec{Name: name, Description: "test tool: " + command, Command: command}
	for _, s := range slots {
		spec.Args = append(spec.Args, tool.Arg{Name: s, Type: tool.String, Required: true, Description: "slot " + s})
	}
	b, err := base.New(spec, kerneltest.New(t, nil))
	require.NoError(t, err)
	reg := &tool.Registry{}
	require.NoError(t, reg.Add(tool.Entry{Tool: b, Form: tool.FormBuiltin, Source: "test"}))
	srv, err := mcp.New(reg)
	require.NoError(t, err)
	return srv
}

func echoServer(t *testing.T) *mcp.Server {
	return commandServer(t, "echo_word", "echo {word}", "word")
}

// serveInBackground runs l.Serve(srv) until the returned stop is called;
// stop waits for Serve to return, and fails the test on its error.
func serveInBackground(t *testing.T, l *Listener, srv *mcp.Server) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Serve(ctx, srv) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				assert.NoError(t, err, "Serve")
			case <-time.After(30 * time.Second):
				t.Error("Serve did not return")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// uniqueSecs is a duration for sleep, about whole seconds, that no other
// process of the machine is likely to be sleeping.
func uniqueSecs(whole int) string {
	return fmt.Sprintf("%d.%06d", whole, time.Now().UnixNano()/1000%1000000)
}

// running waits (up to 20 s) until a process runs the binary name (any
// directory) with exactly args, and returns its pid (0: none came).
func running(name string, args ...string) int {
	want := strings.Join(args, "\x00") + "\x00"
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, f := range files {
			b, err := os.ReadFile(f)
			argv0, rest, _ := strings.Cut(string(b), "\x00")
			if err == nil && filepath.Base(argv0) == name && rest == want {
				pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
				return pid
			}
		}
	}
	return 0
}

// TestServeDrainsThenKills: when the context ends, a call that finishes
// within the shutdown timeout returns its result; one that does not is
// killed at the deadline; Serve says so and returns.
func TestServeDrainsThenKills(t *testing.T) {
	for _, c := range []struct {
		name, secs string
		timeout    time.Duration
		result     string
		killed     bool
	}{
		{"drained", uniqueSecs(1), 10 * time.Second, "exit: 0", false},
		{"killed", uniqueSecs(30), 300 * time.Millisecond, "shut down", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var logged []string
			l, err := Listen(Config{Addr: "127.0.0.1:0", Token: testToken, ShutdownTimeout: c.timeout,
				Logf: func(f string, a ...any) {
					mu.Lock()
					defer mu.Unlock()
					logged = append(logged, f)
				}})
			require.NoError(t, err)
			srv := commandServer(t, "nap", "sleep {secs}", "secs")
			stop := serveInBackground(t, l, srv)
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "serving-test", Version: "1"}, nil).Connect(context.Background(),
				&sdk.StreamableClientTransport{Endpoint: l.Endpoint, HTTPClient: &http.Client{Transport: bearer{testToken}}, MaxRetries: -1}, nil)
			require.NoError(t, err)
			defer cs.Close()
			result := make(chan string, 1)
			go func() {
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nap", Arguments: map[string]any{"secs": c.secs}})
				if err != nil {
					result <- err.Error()
					return
				}
				result <- res.Content[0].(*sdk.TextContent).Text
			}()
			pid := running("sleep", c.secs)
			require.NotZero(t, pid, "the call's command runs")
			start := time.Now()
			stop()
			assert.Less(t, time.Since(start), c.timeout+5*time.Second)
			assert.NoDirExists(t, fmt.Sprintf("/proc/%d", pid), "the command ended with Serve")
			select {
			case r := <-result:
				assert.Contains(t, r, c.result)
			case <-time.After(10 * time.Second):
				t.Fatal("the call was not answered")
			}
			mu.Lock()
			defer mu.Unlock()
			require.NotEmpty(t, logged)
			assert.True(t, strings.HasPrefix(logged[0], "shutting down"), "%q", logged)
			assert.Equal(t, c.killed, len(logged) == 2 && strings.Contains(logged[1], "killed"), "%q", logged)
		})
	}
}
