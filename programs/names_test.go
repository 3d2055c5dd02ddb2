package programs

import (
	"strings"
	"testing"
)

// FuzzProgramName: the program name is made of whole '-' parts of the
// binary's name, and normalising never hides a denied name: a plain entry
// that matches the program name matches the binary.
func FuzzProgramName(f *testing.F) {
	for _, s := range []string{
		"perl5.36-x86_64-linux-gnu", "cpan5.36-x86_64-linux-gnu", "x86_64-linux-gnu-python3.11-config",
		"x86_64", "i386", "x86_64-linux-gnu", "arm-linux-gnueabihf-gdb", "/usr/bin/PERL5.36-X86_64-LINUX-GNU.EXE",
		"ruby-riscv64", "git-upload-pack", "-", "--", "x86_64-", "-x86_64", "x86_64-linux--sh", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, bin string) {
		name := BinaryName(bin)
		prog := ProgramName(bin)
		if prog == "" && name != "" {
			t.Fatalf("ProgramName(%q) is empty", bin)
		}
		if !strings.Contains("-"+name+"-", "-"+prog+"-") {
			t.Fatalf("ProgramName(%q) = %q is not made of whole parts of %q", bin, prog, name)
		}
		if prog == "" || strings.HasSuffix(prog, "*") || normEntry(prog) != prog {
			return // not an entry as written
		}
		if _, denied := NewDenyList(prog).Match(bin); !denied {
			t.Fatalf("NewDenyList(%q).Match(%q) = false", prog, bin)
		}
	})
}
