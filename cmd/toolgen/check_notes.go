package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/nanogpt/toolgen/internal/descdir"
	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/internal/validate"
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

// specNotes returns the validator's notes (validate.Notes) about each
// descriptor of t that loads, at the position of the field each is about.
func specNotes(t checkTarget) []checkNote {
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
		if err != nil {
			continue
		}
		for _, n := range validate.Notes(&s) {
			p, _ := pos.Of(n.Field)
			notes = append(notes, checkNote{file: file, line: p.Line, col: p.Col, title: "toolgen " + n.Title, msg: n.Msg})
		}
	}
	return notes
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
