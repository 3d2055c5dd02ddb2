package mcp

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPSlowBodiesHoldNoSessionPlace: a client that sends the headers of
// an initialize and then its body slowly (or never) counted as a session
// being opened from the start, with no time limit: MaxSessions such
// clients, needing no session and (without a token) no credential, made
// every new session 503 for as long as they kept their connections. The
// body is now read first, within BodyTimeout: the slow clients get 408
// and a real client opens its session meanwhile.
func TestHTTPSlowBodiesHoldNoSessionPlace(t *testing.T) {
	t.Parallel() // it waits (sleeps, grace periods, deadlines) more than it works
	srv := echoServer(t)
	const maxSessions = 3
	endpoint := serveHTTP(t, srv, HTTPOptions{MaxSessions: maxSessions, BodyTimeout: 500 * time.Millisecond})
	u, err := url.Parse(endpoint)
	require.NoError(t, err)
	var slow []net.Conn
	for range maxSessions + 2 {
		c, err := net.Dial("tcp", u.Host)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		_, err = fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
			"Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{", u.Host)
		require.NoError(t, err)
		slow = append(slow, c)
	}
	time.Sleep(100 * time.Millisecond) // let the server take them in

	resp, body := post(t, endpoint, nil, "")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "a new session while slow clients hang on: %s", body)

	for _, c := range slow {
		require.NoError(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
		r, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err, "a slow client got no answer: it holds its goroutine for ever")
		assert.Equal(t, http.StatusRequestTimeout, r.StatusCode)
		r.Body.Close()
	}
}
