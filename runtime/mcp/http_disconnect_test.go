package mcp

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPCallEndsWithItsClient: a client whose request is cut mid-call (a
// real HTTP client closing its connection, as curl -m does) takes the call
// with it, stateless or with a session: the command's process group is
// killed and its --max-calls slot is free for the next call at once.
func TestHTTPCallEndsWithItsClient(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	for _, stateless := range []bool{false, true} {
		name := "session"
		if stateless {
			name = "stateless"
		}
		t.Run(name, func(t *testing.T) {
			k := newKernel(t)
			srv := newServer(t, registry(t, commandTool(t, k, "nap", "sleep {secs}", "secs"),
				commandTool(t, k, "echo_word", "echo {word}", "word")), WithMaxConcurrentCalls(1))
			endpoint := serveHTTP(t, srv, HTTPOptions{Stateless: stateless})
			h := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
			if !stateless {
				resp, _ := post(t, endpoint, nil, "")
				h["Mcp-Session-Id"] = resp.Header.Get("Mcp-Session-Id")
				require.NotEmpty(t, h["Mcp-Session-Id"])
				post(t, endpoint, h, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			}
			secs := uniqueSecs()
			ctx, cut := context.WithCancel(context.Background())
			defer cut()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(
				`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nap","arguments":{"secs":"`+secs+`"}}}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range h {
				req.Header.Set(k, v)
			}
			// Its own transport, so that cutting the request closes a
			// connection no other request shares.
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			errc := make(chan error, 1)
			go func() {
				resp, err := client.Do(req)
				if err == nil {
					_, err = resp.Body.Read(make([]byte, 1<<16))
					for err == nil {
						_, err = resp.Body.Read(make([]byte, 1<<16))
					}
					resp.Body.Close()
				}
				errc <- err
			}()
			pid := findProcess(t, "sleep", secs)
			cut() // the client goes away mid-call
			require.Error(t, <-errc)
			assert.True(t, eventually(10*time.Second, func() bool { return !groupAlive(pid) }),
				"the command (process group %d) outlived its client", pid)
			assert.True(t, eventually(10*time.Second, func() bool { return srv.runningCalls() == 0 }), "the call still counts as running")

			// The only slot is free: the next call runs at once.
			start := time.Now()
			_, body := post(t, endpoint, h,
				`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo_word","arguments":{"word":"next"}}}`)
			assert.Contains(t, body, `exit: 0\noutput: next\n`)
			assert.Less(t, time.Since(start), 10*time.Second)
		})
	}
}
