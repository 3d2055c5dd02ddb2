package gen

import (
	"go/token"
	"strings"
)

// initialisms are the name parts written in upper case in Go identifiers,
// as Go's own naming conventions do (file_id → FileID, not FileId).
var initialisms = map[string]bool{
	"acl": true, "api": true, "ascii": true, "cpu": true, "css": true, "dns": true,
	"eof": true, "guid": true, "html": true, "http": true, "https": true, "id": true,
	"ip": true, "json": true, "sha": true, "sql": true, "ssh": true, "tcp": true,
	"tls": true, "ttl": true, "udp": true, "ui": true, "uid": true, "uri": true,
	"url": true, "utf8": true, "uuid": true, "xml": true, "yaml": true,
}

// GoName returns the exported Go identifier for a descriptor name (a tool or
// slot name, which the validator limits to ^[a-z][a-z0-9_]*$): the name is
// split at underscores, each part gets an upper-case first letter (a part in
// the initialism list, such as id or url, is written all in upper case), and
// the parts are joined: search_text → SearchText, file_id → FileID,
// max_count → MaxCount, x1_2 → X12.
//
// The result is always a valid exported identifier, and never a Go keyword
// (keywords are all lower case), so range, type or func as a slot name are
// fine: they become Range, Type and Func.
func GoName(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, part := range strings.Split(name, "_") {
		switch {
		case part == "":
		case initialisms[part]:
			b.WriteString(strings.ToUpper(part))
		default:
			b.WriteString(strings.ToUpper(part[:1]))
			b.WriteString(part[1:])
		}
	}
	return b.String()
}

// foldKey is the key under which two generated identifiers count as the
// same: identifiers that differ only in case (MaxCount, Maxcount) would
// compile, but a reader could not tell which slot is which, so toolgen
// refuses them as it refuses exact duplicates.
func foldKey(ident string) string { return strings.ToLower(ident) }

// idents are the package-level identifiers generated for one tool, in a fixed
// order (the order of the checks and of their messages).
type idents struct {
	Type   string // the tool type: SearchText
	Args   string // its argument struct: SearchTextArgs
	New    string // its constructor: NewSearchText
	Spec   string // the func returning its Spec: SearchTextSpec
	Digest string // its digest constant: SearchTextDigest
	// Execute is its Temporal workflow stub (Config.Temporal):
	// ExecuteSearchText.
	Execute string
}

func toolIdents(name string) idents {
	t := GoName(name)
	return idents{Type: t, Args: t + "Args", New: "New" + t, Spec: t + "Spec", Digest: t + "Digest", Execute: "Execute" + t}
}

// list returns the identifiers with what each is, for messages; the
// workflow stub only when temporal is set (it is generated only then).
func (id idents) list(temporal bool) [][2]string {
	l := [][2]string{
		{id.Type, "its tool type"},
		{id.Args, "its argument struct"},
		{id.New, "its constructor"},
		{id.Spec, "its Spec function"},
		{id.Digest, "its digest constant"},
	}
	if temporal {
		l = append(l, [2]string{id.Execute, "its Temporal workflow stub"})
	}
	return l
}

// Package-level identifiers every generated file declares.
const (
	toolsFunc     = "Tools"
	digestsFunc   = "Digests"
	examplesTest  = "TestToolgenExamples"
	defaultPkg    = "tools"
	newPkgSuffix  = "pkg"
	generatedFile = "tools_gen.go"
)

// PackageName derives a package name for a directory that holds no Go
// package yet, from the last element of its import path (its base name,
// unless it is a major-version suffix such as v2): the name is lower-cased and
// everything but the letters a-z and the digits 0-9 is dropped, as are
// leading digits ("agent-tools" → agenttools, "My_Tools" → mytools, "2fa" →
// fa). An empty result becomes "tools"; a Go keyword or "main" gets "pkg"
// appended ("type" → typepkg), since a package main without func main does
// not build.
func PackageName(base string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	name := b.String()
	switch {
	case name == "":
		return defaultPkg
	case name == "main" || token.IsKeyword(name):
		return name + newPkgSuffix
	}
	return name
}

// TemporalName is the name of the file of the Temporal workflow stubs
// (Output.Temporal) beside the generated file named base: tools_gen.go
// gives tools_temporal_gen.go, x_gen.go x_temporal_gen.go, and x.go
// x_temporal_gen.go.
func TemporalName(base string) string {
	stem := strings.TrimSuffix(base, ".go")
	stem = strings.TrimSuffix(stem, "_gen")
	return stem + "_temporal_gen.go"
}
