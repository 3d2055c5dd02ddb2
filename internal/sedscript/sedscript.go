// Package sedscript judges a GNU sed script: Judge reads it in full with a
// small parser of GNU sed's script syntax and refuses the commands that run
// programs or touch files the script names. The template check (package
// internal/validate, through programs' sed entry) and the ExecTool's check of
// sed both call it.
package sedscript

import (
	"fmt"
	"strings"
)

// Judge returns why a GNU sed script is refused, or "" when it is safe
// to run: it must be readable in full by a small parser of GNU sed's script
// syntax, and hold none of the commands that run programs or touch files
// the script names — the e command, the e and w flags of s, r, R, w and W.
// A script the parser cannot read completely (an unknown command, an
// unterminated s or regex) is refused, since it cannot be checked. The
// ExecTool checks every sed script a call gives with it, and Spec checks
// the sed scripts of a template (the code-position rule).
//
// The parser reads regular expressions twice: honouring bracket expressions
// as GNU sed does ("s/[/]/x/" has the regex "[/]") and not honouring them.
// A script must be safe under both readings, so a mistake in either one can
// only refuse more.
func Judge(script string) string {
	if reason := (&sedParser{s: script, brackets: true}).parse(); reason != "" {
		return reason
	}
	if reason := (&sedParser{s: script}).parse(); reason != "" {
		return "a bracket expression holds the delimiter (as in /[/]/), which this check cannot read safely; " +
			"use another delimiter (\\%[/]%p, s|[/]|x|) or leave the bracket out"
	}
	return ""
}

type sedParser struct {
	s        string
	i        int
	brackets bool // honour bracket expressions in regular expressions
}

func (p *sedParser) eof() bool  { return p.i >= len(p.s) }
func (p *sedParser) peek() byte { return p.s[p.i] }

func (p *sedParser) skipSpaces() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.i++
	}
}

// parse reads the whole script.
func (p *sedParser) parse() string {
	for {
		for !p.eof() && strings.IndexByte(" \t\n;", p.peek()) >= 0 {
			p.i++
		}
		if p.eof() {
			return ""
		}
		switch p.peek() {
		case '#':
			return "" // a comment runs to the end of the line, and there is one line
		case '}':
			p.i++
			continue
		}
		if reason := p.command(); reason != "" {
			return reason
		}
	}
}

// command reads one command with its addresses.
func (p *sedParser) command() string {
	if reason := p.addresses(); reason != "" {
		return reason
	}
	p.skipSpaces()
	for !p.eof() && p.peek() == '!' {
		p.i++
		p.skipSpaces()
	}
	if p.eof() {
		return "an address without a command"
	}
	cmd := p.peek()
	p.i++
	switch cmd {
	case '{':
		return ""
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		return p.end(cmd)
	case 'l', 'L', 'q', 'Q':
		p.skipSpaces()
		p.digits()
		return p.end(cmd)
	case ':', 'b', 't', 'T':
		p.skipSpaces()
		p.label()
		return p.end(cmd)
	case 'a', 'i', 'c':
		p.i = len(p.s) // the text runs to the end of the line
		return ""
	case 's':
		return p.substitute()
	case 'y':
		return p.transliterate()
	case 'v':
		p.skipSpaces()
		for !p.eof() && strings.IndexByte(" \t\n;}#", p.peek()) < 0 {
			p.i++
		}
		return p.end(cmd)
	case 'e':
		return "the e command runs a shell command"
	case 'r', 'R':
		return fmt.Sprintf("the %c command reads a file named in the script; give the file as an operand instead", cmd)
	case 'w', 'W':
		return fmt.Sprintf("the %c command writes to a file; the output comes back to you anyway", cmd)
	}
	return fmt.Sprintf("%q is not a sed command this check knows, so the script cannot be checked", cmd)
}

// end checks what may follow a command: the end, ';', '}', '#' or a newline.
func (p *sedParser) end(cmd byte) string {
	p.skipSpaces()
	if p.eof() || strings.IndexByte(";}#\n", p.peek()) >= 0 {
		return ""
	}
	return fmt.Sprintf("unexpected %q after the %c command", p.peek(), cmd)
}

func (p *sedParser) digits() bool {
	start := p.i
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		p.i++
	}
	return p.i > start
}

// label reads a label, stopping at the earliest place GNU sed may end it.
func (p *sedParser) label() {
	for !p.eof() && strings.IndexByte(" \t\n;}", p.peek()) < 0 {
		p.i++
	}
}

// addresses reads zero, one or two addresses.
func (p *sedParser) addresses() string {
	found, reason := p.address(false)
	if reason != "" || !found {
		return reason
	}
	p.skipSpaces()
	if p.eof() || p.peek() != ',' {
		return ""
	}
	p.i++
	p.skipSpaces()
	found, reason = p.address(true)
	if reason == "" && !found {
		return "a ',' without a second address"
	}
	return reason
}

// address reads one address: N, N~M, $, /re/, \cREc (with I and M flags),
// and as a second address +N and ~N.
func (p *sedParser) address(second bool) (bool, string) {
	if p.eof() {
		return false, ""
	}
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.digits()
		if !p.eof() && p.peek() == '~' {
			p.i++
			p.digits()
		}
		return true, ""
	case c == '$':
		p.i++
		return true, ""
	case second && (c == '+' || c == '~'):
		p.i++
		if !p.digits() {
			return false, fmt.Sprintf("%c must be followed by a number", c)
		}
		return true, ""
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
			if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
				return false, "a \\ address needs a delimiter"
			}
		}
		delim := p.peek()
		p.i++
		if reason := p.regex(delim); reason != "" {
			return false, reason
		}
		for !p.eof() && (p.peek() == 'I' || p.peek() == 'M') {
			p.i++
		}
		return true, ""
	}
	return false, ""
}

// regex skips a regular expression up to and including delim.
func (p *sedParser) regex(delim byte) string {
	for !p.eof() {
		c := p.peek()
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == delim:
			p.i++
			return ""
		case c == '\n':
			return "a regular expression is not terminated"
		case c == '[' && p.brackets:
			if !p.bracket() {
				return "a bracket expression [ … ] is not terminated"
			}
			continue
		}
		p.i++
	}
	return "a regular expression is not terminated"
}

// bracket skips a bracket expression starting at '['.
func (p *sedParser) bracket() bool {
	p.i++ // '['
	if !p.eof() && p.peek() == '^' {
		p.i++
	}
	if !p.eof() && p.peek() == ']' {
		p.i++
	}
	for !p.eof() {
		rest := p.s[p.i:]
		if len(rest) >= 2 && rest[0] == '[' && strings.IndexByte(":.=", rest[1]) >= 0 {
			end := strings.Index(rest[2:], string(rest[1])+"]")
			if end < 0 {
				return false
			}
			p.i += 2 + end + 2
			continue
		}
		if rest[0] == '\n' {
			return false
		}
		p.i++
		if rest[0] == ']' {
			return true
		}
	}
	return false
}

// replacement skips the replacement of s up to and including delim.
func (p *sedParser) replacement(delim byte) string {
	for !p.eof() {
		c := p.peek()
		switch {
		case c == '\\':
			p.i += 2
			continue
		case c == delim:
			p.i++
			return ""
		case c == '\n':
			return "the replacement is not terminated"
		}
		p.i++
	}
	return "the s command is not terminated"
}

// delimiter reads the delimiter of s or y.
func (p *sedParser) delimiter(cmd byte) (byte, string) {
	if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
		return 0, fmt.Sprintf("the %c command needs a delimiter", cmd)
	}
	d := p.peek()
	p.i++
	return d, ""
}

// substitute reads s/re/replacement/flags.
func (p *sedParser) substitute() string {
	d, reason := p.delimiter('s')
	if reason != "" {
		return reason
	}
	if reason := p.regex(d); reason != "" {
		return reason
	}
	if reason := p.replacement(d); reason != "" {
		return reason
	}
	for !p.eof() {
		switch c := p.peek(); {
		case c == 'g' || c == 'p' || c == 'i' || c == 'I' || c == 'm' || c == 'M' || c >= '0' && c <= '9':
			p.i++
		case c == 'e':
			return "the e flag of s runs the pattern space as a shell command"
		case c == 'w':
			return "the w flag of s writes to a file; the output comes back to you anyway"
		default:
			return p.end('s')
		}
	}
	return ""
}

// transliterate reads y/src/dst/.
func (p *sedParser) transliterate() string {
	d, reason := p.delimiter('y')
	if reason != "" {
		return reason
	}
	for range 2 {
		if reason := p.replacement(d); reason != "" {
			return "the y command is not terminated"
		}
	}
	return p.end('y')
}
