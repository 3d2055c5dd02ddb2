package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/internal/hostentry"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// checkNote is a remark of toolgen check: not a problem (the exit code
// does not change), a place (line 0: the file or directory as a whole), a
// message, and a title for GitHub's notice.
type checkNote struct {
	file      string
	line, col int
	msg       string
	title     string
}

// hostNotes returns a note for each descriptor of t whose "network" is
// true and whose command names fixed URLs (https://api.github.com/... with
// no slot in the host): the hosts entries that would let the command reach
// only those hosts.
func hostNotes(t checkTarget) []checkNote {
	dir, err := descdir.Open(t.dir)
	if err != nil {
		return nil // check reported it
	}
	defer dir.Close()
	names := t.files
	if names == nil {
		names, _ = dir.Names(tool.DescriptorExt)
	}
	var notes []checkNote
	for _, name := range names {
		data, _, err := dir.Read(name, descdir.MaxFileSize) // the loader's rule: what it refused gets no note
		if err != nil {
			continue
		}
		file := dir.File(name)
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
		notes = append(notes, checkNote{file: file, line: p.Line, col: p.Col, title: "toolgen network hosts", msg: fmt.Sprintf(
			`"network": true lets the command reach every host, and its template names %s: `+
				`"network": {"hosts": [%s]} would let it reach only them`, plural(len(hosts), "this host", "these hosts"),
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
			if h := hostentry.OfURL(word[start : off+len(authority)]); h != "" && !slices.Contains(hosts, h) {
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
// MSG (FILE: note: MSG without a position) or a GitHub notice; json prints
// only problems.
func (p problemPrinter) printNotes(w io.Writer, notes []checkNote) {
	for _, n := range notes {
		file := p.displayPath(n.file)
		switch {
		case p.format == formatGitHub && n.line > 0:
			fmt.Fprintf(w, "::notice file=%s,line=%d,col=%d,title=%s::%s\n", escapeProperty(filepath.ToSlash(file)), n.line, n.col,
				escapeProperty(n.title), escapeData(n.msg))
		case p.format == formatGitHub:
			fmt.Fprintf(w, "::notice file=%s,title=%s::%s\n", escapeProperty(filepath.ToSlash(file)), escapeProperty(n.title), escapeData(n.msg))
		case p.format == formatText && n.line > 0:
			fmt.Fprintln(w, escape.Unprintable(fmt.Sprintf("%s:%d:%d: note: %s", file, n.line, n.col, n.msg), "\t"))
		case p.format == formatText:
			fmt.Fprintln(w, escape.Unprintable(fmt.Sprintf("%s: note: %s", file, n.msg), "\t"))
		}
	}
}
