package gen

import (
	"go/token"
	"strings"
	"testing"
)

func TestGoName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"search_text", "SearchText"},
		{"x", "X"},
		{"max_count", "MaxCount"},
		{"maxcount", "Maxcount"},
		{"file_id", "FileID"},
		{"url", "URL"},
		{"http_url_id", "HTTPURLID"},
		{"ids", "Ids"},
		{"x1_2", "X12"},
		{"a__b", "AB"},
		{"trailing_", "Trailing"},
		{"range", "Range"},
		{"type", "Type"},
		{"func", "Func"},
		{"go", "Go"},
		{"utf8_text", "UTF8Text"},
	} {
		got := GoName(c.in)
		if got != c.want {
			t.Errorf("GoName(%q) = %q, want %q", c.in, got, c.want)
		}
		if !token.IsIdentifier(got) || !token.IsExported(got) || token.IsKeyword(got) {
			t.Errorf("GoName(%q) = %q is not an exported identifier", c.in, got)
		}
	}
}

// FuzzGoName: every name the validator accepts gives an exported
// identifier that is no keyword.
func FuzzGoName(f *testing.F) {
	for _, s := range []string{"a", "a_b", "z9_9", "id", "range"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToLower(s)
		if s == "" || s[0] < 'a' || s[0] > 'z' || strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
			return
		}
		got := GoName(s)
		if !token.IsIdentifier(got) || !token.IsExported(got) || token.IsKeyword(got) {
			t.Errorf("GoName(%q) = %q", s, got)
		}
		if foldKey(got) != strings.ReplaceAll(s, "_", "") {
			t.Errorf("foldKey(GoName(%q)) = %q, want the name without underscores", s, foldKey(got))
		}
	})
}

func TestPackageName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"agent", "agent"},
		{"agent-tools", "agenttools"},
		{"My_Tools", "mytools"},
		{"2fa", "fa"},
		{"v2", "v2"},
		{"123", "tools"},
		{"", "tools"},
		{".", "tools"},
		{"---", "tools"},
		{"type", "typepkg"},
		{"main", "mainpkg"},
		{"go", "gopkg"},
		{"outils-日本", "outils"},
	} {
		got := PackageName(c.in)
		if got != c.want {
			t.Errorf("PackageName(%q) = %q, want %q", c.in, got, c.want)
		}
		if !token.IsIdentifier(got) || token.IsKeyword(got) {
			t.Errorf("PackageName(%q) = %q is not a package name", c.in, got)
		}
	}
}

// TestReserved: a declaration of the target package is never redeclared or
// shadowed: a tool identifier that hits one is a 613 naming the file, a
// package-level one is an error, and an import whose name is taken is
// aliased.
func TestReserved(t *testing.T) {
	desc := []Descriptor{{Path: "s.tool.json", Data: []byte(`{"name":"search_text","description":"d","command":"grep {p} .","arguments":{"p":{"type":"string","description":"p","required":true}}}`)}}

	_, err := Generate(Config{Package: "p", Reserved: map[string]string{"NewSearchText": "mine.go"}}, desc)
	want := `s.tool.json:1:2: error 613: tool name "search_text" gives the Go identifier NewSearchText (its constructor), which the package already declares in mine.go; rename the tool or that declaration`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}

	_, err = Generate(Config{Package: "p", Reserved: map[string]string{"Tools": "mine.go", "Digests": "other.go"}}, desc)
	if err == nil || !strings.Contains(err.Error(), "already declares Tools (declared in mine.go), Digests (declared in other.go)") {
		t.Errorf("error = %v", err)
	}

	out, err := Generate(Config{Package: "p", Reserved: map[string]string{"base": "a.go", "toolgenbase": "b.go", "tool": "c.go"}}, desc)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range []string{`toolgenbase2 "github.com/nanogpt/toolgen/runtime/base"`, `toolgentool "github.com/nanogpt/toolgen/runtime/tool"`,
		`= toolgenbase2.Typed[SearchTextArgs]`, `func SearchTextSpec() toolgentool.Spec`} {
		if !strings.Contains(string(out.Code), imp) {
			t.Errorf("generated code lacks %s", imp)
		}
	}
}

func TestBadPackageName(t *testing.T) {
	for _, name := range []string{"", "_", "a-b", "1x", "ünïcode-"} {
		if _, err := Generate(Config{Package: name}, nil); err == nil {
			t.Errorf("Generate accepted the package name %q", name)
		}
	}
}
