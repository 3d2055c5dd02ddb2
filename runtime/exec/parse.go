package exec

import (
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/nanogpt/toolgen/internal/validate"
)

// Defence 3 (operators): the line is parsed by mvdan.cc/sh (bash grammar) and must be
// exactly one simple command whose words are fully literal. This file never
// decides what is a quote or an operator itself: the parser's syntax tree
// does; it only resolves the backslash escapes inside literal parts, which
// the tree keeps as written.

// word is one word of the command line.
type word struct {
	text   string // the value after quote removal: what the program receives
	src    string // the word as written
	offset int    // byte offset of the word in the line
	plain  bool   // written without quotes or backslashes
}

// refusal is a defence's "no": which word (-1: the whole line) and why.
type refusal struct {
	word   int
	reason string
}

func refuse(w int, format string, args ...any) *refusal {
	return &refusal{word: w, reason: fmt.Sprintf(format, args...)}
}

// parsers reuses parsers, which are not safe for concurrent use but may be
// used again once a Parse returned.
var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
}}

// parseLine applies defence 3 (operators) to line and returns its words.
func parseLine(line string) ([]word, *refusal) {
	if len(line) > MaxCommandBytes {
		return nil, refuse(-1, "the command is %d bytes; the limit is %d", len(line), MaxCommandBytes)
	}
	if err := validate.CheckLine(Slot, line); err != nil {
		reason := err.Msg
		if strings.Contains(reason, "LINE FEED") || strings.Contains(reason, "CARRIAGE RETURN") {
			reason += "; one command per call"
		}
		return nil, refuse(-1, "%s", reason)
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(line), "")
	parsers.Put(p)
	if err != nil {
		return nil, refuse(-1, "the line does not parse as a shell command (%v); write one command of plain words, "+
			"quoting any argument that holds spaces or shell characters", err)
	}
	call, r := simpleCommand(f)
	if r != nil {
		return nil, r
	}
	words := make([]word, len(call.Args))
	for i, w := range call.Args {
		lw, r := literalWord(w, i, line)
		if r != nil {
			return nil, r
		}
		words[i] = lw
	}
	return words, nil
}

// simpleCommand returns the one simple command of f, or why there is none.
func simpleCommand(f *syntax.File) (*syntax.CallExpr, *refusal) {
	if len(f.Stmts) == 0 {
		if len(f.Last) > 0 {
			return nil, refuse(-1, "comments (#…) are not allowed, and the line holds no command")
		}
		return nil, refuse(-1, "the command is empty; give one command such as ls -la")
	}
	if len(f.Stmts) > 1 {
		return nil, refuse(-1, "the line holds %d commands (separated by ; or &); exactly one command per call: "+
			"call the tool once for each", len(f.Stmts))
	}
	s := f.Stmts[0]
	switch {
	case len(s.Comments) > 0 || len(f.Last) > 0:
		return nil, refuse(-1, "comments (#…) are not allowed; to pass a word that begins with #, quote it ('#x')")
	case s.Background || s.Disown || s.Coprocess:
		return nil, refuse(-1, "& (running in the background) is not allowed; the command runs in the foreground with a timeout")
	case s.Semicolon.IsValid():
		return nil, refuse(-1, "; is not allowed, not even at the end: exactly one command per call")
	case s.Negated:
		return nil, refuse(-1, "! (negating the exit status) is not allowed; the exit code is reported as it is")
	case len(s.Redirs) > 0:
		return nil, refuse(-1, "redirections (>, >>, <, 2>&1, <<, <<<) are not allowed: no shell runs the command, "+
			"and its output (stdout and stderr) comes back to you anyway")
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return nil, refuse(-1, "variable assignments (FOO=1 cmd) are not allowed: the environment is fixed")
		}
		return c, nil
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt:
			return nil, refuse(-1, "%s chains are not allowed: exactly one command per call", c.Op)
		default:
			return nil, refuse(-1, "pipes (%s) are not allowed: exactly one command per call; "+
				"run the first command and work on its output yourself", c.Op)
		}
	case *syntax.Subshell:
		return nil, refuse(-1, "subshells ( … ) are not allowed: exactly one simple command")
	case *syntax.Block:
		return nil, refuse(-1, "blocks { …; } are not allowed: exactly one simple command")
	case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause:
		return nil, refuse(-1, "shell control flow (if, while, until, for, case, select) is not allowed: exactly one simple command")
	case *syntax.FuncDecl:
		return nil, refuse(-1, "function definitions are not allowed: exactly one simple command")
	case *syntax.ArithmCmd:
		return nil, refuse(-1, "arithmetic commands (( … )) are not allowed: exactly one simple command")
	case *syntax.TestClause:
		return nil, refuse(-1, "[[ … ]] tests are not allowed: exactly one simple command")
	case *syntax.DeclClause:
		return nil, refuse(-1, "shell builtins such as export, declare, local and readonly are not allowed: no shell runs the command")
	case *syntax.LetClause:
		return nil, refuse(-1, "let is not allowed: no shell runs the command")
	case *syntax.TimeClause:
		return nil, refuse(-1, "time is not allowed: the duration is measured anyway")
	case *syntax.CoprocClause:
		return nil, refuse(-1, "coproc is not allowed: exactly one simple command")
	}
	return nil, refuse(-1, "this is not a simple command; give one binary and its arguments")
}

// wordBuilder collects a word's value and, for brace detection, which of its
// bytes were unquoted.
type wordBuilder struct {
	index    int
	src      string // the word as written, for messages
	b        strings.Builder
	unquoted []bool // parallel to b's bytes; nil until needed
	braces   bool   // an unquoted '{' was seen
	plain    bool
}

func (wb *wordBuilder) add(s string, quoted bool) {
	if wb.unquoted != nil || (!quoted && strings.IndexByte(s, '{') >= 0) {
		if wb.unquoted == nil {
			wb.unquoted = make([]bool, wb.b.Len(), wb.b.Len()+len(s))
		}
		for range len(s) {
			wb.unquoted = append(wb.unquoted, !quoted)
		}
		wb.braces = wb.braces || !quoted && strings.IndexByte(s, '{') >= 0
	}
	wb.b.WriteString(s)
}

// literalWord resolves w to its literal value, refusing any part that a shell
// would expand.
func literalWord(w *syntax.Word, index int, line string) (word, *refusal) {
	start, end := int(w.Pos().Offset()), int(w.End().Offset())
	wb := &wordBuilder{index: index, plain: true}
	if start >= 0 && end <= len(line) && start <= end {
		wb.src = line[start:end]
	}
	for i, part := range w.Parts {
		if r := wb.part(part, i == 0); r != nil {
			return word{}, r
		}
	}
	lw := word{text: wb.b.String(), src: wb.src, offset: start, plain: wb.plain}
	if wb.braces && braceExpansion(lw.text, wb.unquoted) {
		return word{}, refuse(index, "word %q would be brace-expanded by a shell ({a,b} or {1..3}), and no shell runs here; "+
			"write the words out, or quote the word to pass it literally", lw.src)
	}
	return lw, nil
}

// part adds one word part.
func (wb *wordBuilder) part(part syntax.WordPart, first bool) *refusal {
	switch p := part.(type) {
	case *syntax.Lit:
		return wb.unquotedLit(p.Value, first)
	case *syntax.SglQuoted:
		wb.plain = false
		if p.Dollar {
			return refuse(wb.index, "$'…' (ANSI-C quoting) is not allowed; use plain single quotes")
		}
		wb.add(p.Value, true)
		return nil
	case *syntax.DblQuoted:
		wb.plain = false
		if p.Dollar {
			return refuse(wb.index, `$"…" (locale quoting) is not allowed; use plain double or single quotes`)
		}
		for _, q := range p.Parts {
			lit, ok := q.(*syntax.Lit)
			if !ok {
				return wb.expansion(q, true)
			}
			if r := wb.doubleQuotedLit(lit.Value); r != nil {
				return r
			}
		}
		return nil
	}
	return wb.expansion(part, false)
}

// expansion explains why a non-literal word part is refused.
func (wb *wordBuilder) expansion(part syntax.WordPart, inDouble bool) *refusal {
	hint := "; no shell runs the command, so nothing is expanded: write the literal value"
	if inDouble {
		hint = "; inside double quotes $ and ` still expand: use single quotes for a literal $"
	}
	var what string
	switch p := part.(type) {
	case *syntax.ParamExp:
		what = "$VAR and ${…} (parameter expansion) are"
	case *syntax.CmdSubst:
		what = "$(…) (command substitution) is"
		if p.Backquotes {
			what = "backticks `…` (command substitution) are"
		}
	case *syntax.ArithmExp:
		what = "$((…)) (arithmetic expansion) is"
	case *syntax.ProcSubst:
		what = "<(…) and >(…) (process substitution) are"
	case *syntax.ExtGlob:
		what = "extended globs such as @(…), !(…), *(…) are"
	case *syntax.BraceExp:
		what = "brace expansion is"
	default:
		what = fmt.Sprintf("%T is", part)
	}
	return refuse(wb.index, "word %q: %s not allowed%s", wb.src, what, hint)
}

// unquotedLit adds an unquoted literal part: a backslash quotes the next
// character and is removed; $, globs and a leading ~ are refused.
func (wb *wordBuilder) unquotedLit(v string, first bool) *refusal {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			wb.plain = false
			if i+1 == len(v) {
				return refuse(wb.index, "word %q ends in a backslash that escapes nothing; write \\\\ for a literal backslash", wb.src)
			}
			i++
			wb.add(v[i:i+1], true)
			continue
		case '$', '`':
			return refuse(wb.index, "word %q: %c is not allowed outside single quotes (variables and expansions); "+
				"write '%c' in single quotes for a literal %c", wb.src, c, c, c)
		case '*', '?', '[':
			return refuse(wb.index, "word %q: unquoted %c is a glob pattern, and no shell expands it here; "+
				"quote the word ('*.go') to pass the pattern as is, or name the files", wb.src, c)
		case '~':
			if first && i == 0 && wb.b.Len() == 0 || wb.tildeAfterAssign() {
				return refuse(wb.index, "word %q: a leading ~ is not expanded (no shell runs here); "+
					"paths are relative to the workspace, which is also HOME: drop the ~/, or quote the ~ to pass it as is", wb.src)
			}
		}
		wb.add(v[i:i+1], false)
	}
	return nil
}

// tildeAfterAssign reports whether an unquoted '~' added now would follow
// NAME= written unquoted, where bash expands it (foo=~/x).
func (wb *wordBuilder) tildeAfterAssign() bool {
	name, ok := strings.CutSuffix(wb.b.String(), "=")
	return ok && wb.plain && isName(name)
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// doubleQuotedLit adds a literal part inside double quotes: a backslash
// quotes $ ` " \ and is otherwise kept; an unescaped $ or ` is refused.
func (wb *wordBuilder) doubleQuotedLit(v string) *refusal {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			if i+1 < len(v) && strings.IndexByte("$`\"\\", v[i+1]) >= 0 {
				i++
				wb.add(v[i:i+1], true)
				continue
			}
		case '$', '`':
			return refuse(wb.index, "word %q: %c inside double quotes still expands; use single quotes for a literal %c", wb.src, c, c)
		}
		wb.add(v[i:i+1], true)
	}
	return nil
}

// braceExpansion reports whether text, with unquoted marking its unquoted
// bytes, holds an unquoted '{' followed by an unquoted ',' or "..", then an
// unquoted '}': a brace expansion for bash (over-approximated: bash also
// wants the parts to be well formed).
func braceExpansion(text string, unquoted []bool) bool {
	open := -1
	sep := false
	for i := 0; i < len(text) && i < len(unquoted); i++ {
		if !unquoted[i] {
			continue
		}
		switch text[i] {
		case '{':
			if open < 0 {
				open, sep = i, false
			}
		case ',':
			sep = sep || open >= 0
		case '.':
			if open >= 0 && i+1 < len(text) && text[i+1] == '.' && unquoted[i+1] {
				sep = true
			}
		case '}':
			if open >= 0 && sep {
				return true
			}
		}
	}
	return false
}
