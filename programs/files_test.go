package programs

import (
	"slices"
	"strings"
	"testing"
)

// TestFileRefs: every spelling curl and wget accept for an option that
// opens a named file is found, with the word the file is in; data that
// only looks like a file is not.
func TestFileRefs(t *testing.T) {
	type ref = FileRef
	cases := []struct {
		argv []string
		want []ref
	}{
		{[]string{"curl", "-d", "@/etc/passwd", "https://x"}, []ref{{2, "-d", "/etc/passwd"}}},
		{[]string{"curl", "-d@x", "https://x"}, []ref{{1, "-d", "x"}}},
		{[]string{"curl", "-sSd@x", "https://x"}, []ref{{1, "-d", "x"}}},
		{[]string{"curl", "--data=@x"}, []ref{{1, "--data", "x"}}},
		{[]string{"curl", "--data-bin", "@x"}, []ref{{2, "--data-bin", "x"}}}, // an abbreviation
		{[]string{"curl", "--json", "@body.json"}, []ref{{2, "--json", "body.json"}}},
		{[]string{"curl", "-H", "@h.txt"}, []ref{{2, "-H", "h.txt"}}},
		{[]string{"curl", "-w", "@fmt"}, []ref{{2, "-w", "fmt"}}},
		{[]string{"curl", "-d", "name=a@b.example"}, nil}, // data: '@' not first
		{[]string{"curl", "-d", "@-"}, nil},               // standard input
		{[]string{"curl", "--data-raw", "@x"}, nil},       // --data-raw never reads a file
		{[]string{"curl", "--data-urlencode", "n@/etc/shadow"}, []ref{{2, "--data-urlencode", "/etc/shadow"}}},
		{[]string{"curl", "--data-urlencode", "@x"}, []ref{{2, "--data-urlencode", "x"}}},
		{[]string{"curl", "--data-urlencode", "n=a@b"}, nil},
		{[]string{"curl", "-F", "f=@/etc/passwd;type=text/plain"}, []ref{{2, "-F", "/etc/passwd"}}},
		{[]string{"curl", "-F", "f=<x"}, []ref{{2, "-F", "x"}}},
		{[]string{"curl", "-F", `f=@"a;b"`}, []ref{{2, "-F", "a"}}},
		{[]string{"curl", "-F", "f=v;headers=@h"}, []ref{{2, "-F", "h"}}},
		{[]string{"curl", "--form=f=@x"}, []ref{{1, "--form", "x"}}},
		{[]string{"curl", "-b", "cookies.txt"}, []ref{{2, "-b", "cookies.txt"}}},
		{[]string{"curl", "-b", "a=b"}, nil},
		{[]string{"curl", "-T", "/etc/passwd", "https://x"}, []ref{{2, "-T", "/etc/passwd"}}},
		{[]string{"curl", "-sSo", "out", "https://x"}, []ref{{2, "-o", "out"}}},
		{[]string{"curl", "--output=../o", "https://x"}, []ref{{1, "--output", "../o"}}},
		{[]string{"curl", "--", "-d", "@x"}, nil}, // operands after "--"
		{[]string{"curl", "https://x"}, nil},
		{[]string{"wget", "--post-file", "/etc/passwd", "https://x"}, []ref{{2, "--post-file", "/etc/passwd"}}},
		{[]string{"wget", "-O/tmp/x", "https://x"}, []ref{{1, "-O", "/tmp/x"}}},
		{[]string{"wget", "--load-cookies=c", "https://x"}, []ref{{1, "--load-cookies", "c"}}},
		{[]string{"wget", "-q", "https://x"}, nil},
	}
	for _, c := range cases {
		got := Lookup(c.argv[0]).FileRefs(c.argv)
		if !slices.Equal(got, c.want) {
			t.Errorf("FileRefs(%q) = %+v, want %+v", c.argv, got, c.want)
		}
	}
	if Lookup("grep").FileRefs([]string{"grep", "-f", "/etc/passwd"}) != nil {
		t.Error("grep has no file options listed; FileRefs found some")
	}
}

// FuzzFileRefs: FileRefs reads any command line of curl or wget without
// failing, and every file it reports is part of the word it names.
func FuzzFileRefs(f *testing.F) {
	for _, s := range []string{"curl -d @x https://x", "curl -sSF f=@a;headers=<h -b c --data-urlencode n@y",
		"wget --post-file=p -O o", "curl --da=@x -- -d @y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Fields(line)
		if len(argv) == 0 {
			return
		}
		p := Lookup(argv[0])
		if p == nil {
			return
		}
		for _, r := range p.FileRefs(argv) {
			if r.Word < 1 || r.Word >= len(argv) || !strings.Contains(argv[r.Word], r.File) || r.File == "" || r.File == "-" {
				t.Fatalf("FileRefs(%q) gave %+v", argv, r)
			}
		}
	})
}
