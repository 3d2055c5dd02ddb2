package programs

import (
	"strings"
	"testing"
)

// matchLinear is Match without the first-byte index: every entry in order,
// against the name, then (for a name with a triplet or version part after
// a '-') against its program name.
func matchLinear(d DenyList, binary string) (string, bool) {
	name := BinaryName(binary)
	scan := func(n string) (string, bool) {
		for _, e := range d.entries {
			if matchEntry(e, n) {
				return e, true
			}
		}
		return "", false
	}
	if e, ok := scan(name); ok {
		return e, true
	}
	if prog := ProgramName(name); strings.IndexByte(name, '-') >= 0 && prog != name {
		return scan(prog)
	}
	return "", false
}

var matchSeeds = []string{"rm", "/usr/bin/python3.11", "perl5.36-x86_64-linux-gnu", "PYTHON3.EXE.", `C:\bin\cmd.exe`,
	"grep", "", "/", "-rf", "sh", "bash5", "x86_64-linux-gnu-gcc", "é", "\x00", "zsh:stream", "*", "python*"}

// The first-byte index never changes Match's answer, on the default list
// and on lists with "*", odd first characters and extensions.
func TestMatchIndexAgreesWithLinearScan(t *testing.T) {
	lists := []DenyList{DefaultDenyList(), NewDenyList("*"), NewDenyList("py*", "-x", "9p", ".hidden", "é*"), DefaultDenyList().With("*")}
	names := append([]string(nil), matchSeeds...)
	for _, e := range defaultDenied {
		p := strings.TrimSuffix(e, "*")
		names = append(names, p, p+"3", p+"-x86_64-linux-gnu", "/usr/bin/"+p+".1", "a"+p, strings.ToUpper(p))
	}
	for _, d := range lists {
		for _, n := range names {
			ge, gd := d.Match(n)
			we, wd := matchLinear(d, n)
			if ge != we || gd != wd {
				t.Errorf("%v.Match(%q) = %q, %v; a linear scan says %q, %v", d.entries[:min(3, len(d.entries))], n, ge, gd, we, wd)
			}
		}
	}
}

func FuzzMatchIndex(f *testing.F) {
	for _, s := range matchSeeds {
		f.Add(s, "py*")
	}
	f.Fuzz(func(t *testing.T, name, extra string) {
		for _, d := range []DenyList{DefaultDenyList(), DefaultDenyList().With(extra), NewDenyList(extra)} {
			ge, gd := d.Match(name)
			we, wd := matchLinear(d, name)
			if ge != we || gd != wd {
				t.Fatalf("Match(%q) with extra %q = %q, %v; a linear scan says %q, %v", name, extra, ge, gd, we, wd)
			}
		}
	})
}
