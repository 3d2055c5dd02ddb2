package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/internal/escape"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// errorFormat is how check and generate print the 613s they find
// (--error-format): text (FILE:LINE:COL: error 613: message, as go vet),
// json (one object a line: file, line, column, code, message) or github
// (GitHub Actions workflow commands, which annotate the file in a pull
// request). It implements flag.Value.
type errorFormat string

const (
	formatText   errorFormat = "text"
	formatJSON   errorFormat = "json"
	formatGitHub errorFormat = "github"
)

func (f *errorFormat) String() string { return string(*f) }

func (f *errorFormat) Set(s string) error {
	switch v := errorFormat(s); v {
	case formatText, formatJSON, formatGitHub:
		*f = v
		return nil
	}
	return fmt.Errorf("want text, json or github")
}

// errorFormatUsage is the help text of --error-format.
const errorFormatUsage = "how problems are printed: text (FILE:LINE:COL: error 613: ...), json (one {file,line,column,code,message} object a line) or github (Actions annotations)"

// problemPrinter prints problems in a format, with file names relative to
// base (see problemBase).
type problemPrinter struct {
	format errorFormat
	base   string
}

// newProblemPrinter returns the printer for format, with paths relative to
// problemBase.
func newProblemPrinter(format errorFormat) problemPrinter {
	return problemPrinter{format: format, base: problemBase()}
}

// problemBase is the directory problems' file names are relative to: the
// current directory, where the command was run, as the go command does.
// Under go generate, which runs a generator in the package directory and
// does not say where it was itself run, it is the module root (where go
// generate ./... is run, and what the generated "// source:" line counts
// from), so a file is named tools/x.tool.json, not x.tool.json.
func problemBase() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if os.Getenv("GOFILE") == "" || os.Getenv("GOPACKAGE") == "" {
		return wd
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}

// displayPath returns file relative to p.base, or absolute when that is
// shorter (a file far outside it), as the go command's ShortPath does.
func (p problemPrinter) displayPath(file string) string {
	if file == "" || p.base == "" {
		return file
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(p.base, abs); err == nil && len(rel) < len(abs) {
		return rel
	}
	return abs
}

// problem is one problem as json and github print it.
type problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// located returns the problem of err: its *tool.Error's place and code,
// and its message without place or code.
func (p problemPrinter) located(err error) problem {
	var stale *staleError
	if errors.As(err, &stale) {
		return problem{File: p.displayPath(stale.file), Message: stale.msg}
	}
	var te *tool.Error
	if !errors.As(err, &te) {
		return problem{Message: err.Error()}
	}
	bare := *te
	bare.File, bare.Line, bare.Col = "", 0, 0
	msg := strings.TrimPrefix(bare.Error(), "error "+strconv.Itoa(int(te.Code))+": ")
	return problem{File: p.displayPath(te.File), Line: te.Line, Column: te.Col, Code: int(te.Code), Message: msg}
}

// print prints every problem (each errors.Join flattened), one a line.
func (p problemPrinter) print(w io.Writer, problems []error) {
	for _, perr := range problems {
		for _, e := range tool.Flatten(perr) {
			switch p.format {
			case formatJSON:
				data, _ := json.Marshal(p.located(e))
				fmt.Fprintf(w, "%s\n", data)
			case formatGitHub:
				fmt.Fprintln(w, githubAnnotation(p.located(e)))
			default:
				fmt.Fprintln(w, escape.Unprintable(strings.TrimRight(p.text(e), "\n"), "\t"))
			}
		}
	}
}

// text is err as go vet prints a problem, its file name made relative.
func (p problemPrinter) text(err error) string {
	var te *tool.Error
	if errors.As(err, &te) && err == error(te) && te.File != "" {
		c := *te
		c.File = p.displayPath(te.File)
		return c.Error()
	}
	return err.Error()
}

// githubAnnotation writes pr as a GitHub Actions error command:
// ::error file=F,line=L,col=C,title=T::MESSAGE, with the escapes the
// runner expects (% CR LF in the message; also : and , in properties).
func githubAnnotation(pr problem) string {
	var props []string
	if pr.File != "" {
		props = append(props, "file="+escapeProperty(filepath.ToSlash(pr.File)))
		if pr.Line > 0 {
			props = append(props, "line="+strconv.Itoa(pr.Line), "col="+strconv.Itoa(pr.Column))
		}
	}
	title := "toolgen"
	if pr.Code != 0 {
		title = "toolgen error " + strconv.Itoa(pr.Code)
	}
	props = append(props, "title="+escapeProperty(title))
	return "::error " + strings.Join(props, ",") + "::" + escapeData(pr.Message)
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
