package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/internal/hostentry"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// Note is a remark about a valid descriptor: not a problem (Spec accepts
// it and the tool is served), something its author may want to change.
// Every entry point that reads descriptors can print it (toolgen check as
// FILE:LINE:COL: note: ..., explain as a line of its report).
type Note struct {
	// Field is the descriptor field the note is about ("network"), for a
	// position; Title names the kind of note in a word or three ("network
	// hosts"); Msg is the note itself, one line.
	Field, Title, Msg string
}

// Notes returns the notes about s, which Spec accepted: a "network": true
// whose template names fixed http:// or https:// URLs (the hosts entries
// that would let the command reach only those hosts).
func Notes(s *tool.Spec) []Note {
	if !s.Network || len(s.Hosts) > 0 {
		return nil
	}
	t, err := ParseTemplate(s.Command)
	if err != nil {
		return nil
	}
	hosts := TemplateHosts(t)
	if len(hosts) == 0 {
		return nil
	}
	quoted := make([]string, len(hosts))
	for i, h := range hosts {
		quoted[i] = strconv.Quote(h)
	}
	these := "these hosts"
	if len(hosts) == 1 {
		these = "this host"
	}
	return []Note{{Field: "network", Title: "network hosts", Msg: fmt.Sprintf(
		`"network": true lets the command reach every host, and its template names %s: `+
			`"network": {"hosts": [%s]} would let it reach only them`, these, strings.Join(quoted, ", "))}}
}

// TemplateHosts returns the allow-list entry (host:port) of each fixed
// http:// or https:// URL in t's words, in order, once each. A URL whose
// host or port holds a slot (https://{host}/) names no fixed host and is
// left out.
func TemplateHosts(t *Template) []string {
	var hosts []string
	for _, w := range t.Words[1:] {
		for _, h := range wordHosts(w) {
			if !slices.Contains(hosts, h) {
				hosts = append(hosts, h)
			}
		}
	}
	return hosts
}

// wordHosts returns the entries of the fixed URLs in one word.
func wordHosts(w Word) []string {
	var text strings.Builder // the word, a slot as '{'
	for _, p := range w {
		if p.Slot != "" {
			text.WriteByte('{')
			continue
		}
		text.WriteString(p.Lit)
	}
	word := text.String()
	lower := strings.ToLower(word)
	var out []string
	for off := 0; ; {
		i := strings.Index(lower[off:], "://")
		if i < 0 {
			return out
		}
		at := off + i
		off = at + 3
		start := -1
		switch {
		case strings.HasSuffix(lower[:at], "https"):
			start = at - 5
		case strings.HasSuffix(lower[:at], "http"):
			start = at - 4
		}
		authority := word[off:]
		if k := strings.IndexAny(authority, "/?#"); k >= 0 {
			authority = authority[:k]
		}
		if start < 0 || strings.Contains(authority, "{") {
			continue
		}
		if h := hostentry.OfURL(word[start : off+len(authority)]); h != "" {
			out = append(out, h)
		}
	}
}
