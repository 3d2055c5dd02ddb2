package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/internal/regular"
	"github.com/nanogpt/toolgen/runtime/egress"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// maxNoteFile bounds the descriptor files hostNotes reads (as gen's
// MaxDescriptorSize bounds the loader's).
const maxNoteFile = 1 << 20

// hostNote is a suggestion of toolgen check: not a problem (the exit code
// does not change), a place and a message.
type hostNote struct {
	file      string
	line, col int
	msg       string
}

// hostNotes returns a note for each descriptor of t whose "network" is
// true and whose command names fixed URLs (https://api.github.com/... with
// no slot in the host): the hosts entries that would let the command reach
// only those hosts.
func hostNotes(t checkTarget) []hostNote {
	var files []string
	if t.files == nil {
		files, _ = filepath.Glob(filepath.Join(t.dir, "*"+tool.DescriptorExt))
	}
	for _, f := range t.files {
		files = append(files, filepath.Join(t.dir, f))
	}
	var notes []hostNote
	for _, file := range files {
		data, _, err := regular.Read(file, maxNoteFile)
		if err != nil {
			continue // check reported it
		}
		s, pos, err := tool.DecodeSpec(file, data)
		if err != nil || !s.Network {
			continue
		}
		hosts := templateHosts(s.Command)
		if len(hosts) == 0 {
			continue
		}
		p, _ := pos.Of("network")
		quoted := make([]string, len(hosts))
		for i, h := range hosts {
			quoted[i] = strconv.Quote(h)
		}
		notes = append(notes, hostNote{file: file, line: p.Line, col: p.Col, msg: fmt.Sprintf(
			`"network": true lets the command reach every host, and its template names %s: `+
				`"network": {"hosts": [%s]} would let it reach only that`, plural(len(hosts), "this host", "these hosts"),
			strings.Join(quoted, ", "))})
	}
	return notes
}

// templateHosts returns the host:port of each fixed http:// or https:// URL
// in a command template, in order, once each. A URL whose host holds a
// slot ({host}) names no fixed host and is left out.
func templateHosts(command string) []string {
	var hosts []string
	for _, word := range strings.Fields(command) {
		lower := strings.ToLower(word)
		for off := 0; ; {
			i := strings.Index(lower[off:], "://")
			if i < 0 {
				break
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
			if start < 0 || strings.ContainsAny(authority, "{}") {
				continue
			}
			if h := egress.HostOfURL(word[start : off+len(authority)]); h != "" && !slices.Contains(hosts, h) {
				hosts = append(hosts, h)
			}
		}
	}
	return hosts
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// printNotes prints the notes in the problems' format: FILE:LINE:COL: note:
// MSG (text) or a GitHub notice; json prints only problems.
func (p problemPrinter) printNotes(w io.Writer, notes []hostNote) {
	for _, n := range notes {
		file := p.displayPath(n.file)
		switch p.format {
		case formatGitHub:
			fmt.Fprintf(w, "::notice file=%s,line=%d,col=%d,title=%s::%s\n", escapeProperty(filepath.ToSlash(file)), n.line, n.col,
				escapeProperty("toolgen network hosts"), escapeData(n.msg))
		case formatText:
			fmt.Fprintln(w, escape.Unprintable(fmt.Sprintf("%s:%d:%d: note: %s", file, n.line, n.col, n.msg), "\t"))
		}
	}
}
