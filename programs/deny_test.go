package programs

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestDefaultDenyListDenies(t *testing.T) {
	d := DefaultDenyList()
	for bin, entry := range map[string]string{
		"rm":                            "rm",
		"/bin/rm":                       "rm",
		"RM":                            "rm",
		"Rm.EXE":                        "rm",
		"rm.":                           "rm",
		"../../bin/sh":                  "sh",
		"/usr/bin/../bin/bash":          "bash",
		`C:\Windows\System32\cmd.exe`:   "cmd",
		`C:\Windows\System32\CMD.EXE.`:  "cmd", // Windows drops trailing dots
		"cmd.exe. .":                    "cmd",
		"cmd.exe::$DATA":                "cmd", // NTFS stream
		"C:cmd.exe":                     "cmd", // drive-relative
		"powershell.exe":                "powershell",
		"python3":                       "python*",
		"python3.11":                    "python*",
		"pythonw":                       "python*",
		"python":                        "python*",
		"/usr/local/bin/python3-config": "python*",
		"pypy3":                         "pypy*",
		"perl5.36.0":                    "perl",
		"perl":                          "perl",
		"mkfs.ext4":                     "mkfs*",
		"mkfs":                          "mkfs*",
		"busybox":                       "busybox",
		"env":                           "env",
		"/usr/bin/env":                  "env",
		"xargs":                         "xargs",
		"timeout":                       "timeout",
		"awk":                           "awk",
		"gawk":                          "gawk",
		"node":                          "node",
		"node18":                        "node",
		"bash5":                         "bash",
		"bash-5.2":                      "bash",
		"bash-static":                   "bash-static",
		"ash":                           "ash",
		"zsh":                           "zsh",
		"shred":                         "shred",
		"sudo":                          "sudo",
		"sudoedit":                      "sudoedit",
		"su":                            "su",
		"dd":                            "dd",
		"rmdir":                         "rmdir",
		"nohup":                         "nohup",
		"ruby3.2":                       "ruby",
		"php8.2":                        "php",
		"lua5.4":                        "lua",
		"wsl.exe":                       "wsl",
		"npx":                           "npx",
		"ld.so":                         "ld.so",
		"/usr/bin/ld.so":                "ld.so",
		"/lib64/ld-linux-x86-64.so.2":   "ld-linux*",
		"ld-linux.so.2":                 "ld-linux*",
		"/lib/ld-musl-x86_64.so.1":      "ld-musl*",
		"ld64.so.2":                     "ld64.so*",
	} {
		got, denied := d.Match(bin)
		if !denied || got != entry {
			t.Errorf("Match(%q) = %q, %v; want %q, true", bin, got, denied, entry)
		}
	}
}

func TestDefaultDenyListAllows(t *testing.T) {
	d := DefaultDenyList()
	for _, bin := range []string{
		"grep", "sed", "find", "git", "ls", "cat", "wc", "head", "tail", "sort", "uniq", "diff",
		"shasum", "sha256sum", // not "sh"
		"ssh-keygen", "ssh", // not "sh"; ssh is left to the template author (see the report)
		"envsubst",        // not "env"
		"timeouts",        // not "timeout"
		"shredder",        // not "shred"
		"rm.sh", "rmlint", // not "rm"
		"perldoc",     // not "perl"
		"nodemon",     // not "node"
		"ddrescue",    // not "dd"
		"sudoku",      // not "sudo" or "su"
		"timedatectl", // not "time"
		"commander",   // not "command"
		"/usr/bin/git",
		"./bin/tool",
		"",
	} {
		if e, denied := d.Match(bin); denied {
			t.Errorf("Match(%q) denied by %q", bin, e)
		}
	}
}

func TestBinaryName(t *testing.T) {
	for in, want := range map[string]string{
		"grep":                        "grep",
		"/usr/bin/grep":               "grep",
		"../../bin/sh":                "sh",
		"GREP":                        "grep",
		"Grep.Exe":                    "grep",
		`C:\Windows\System32\cmd.exe`: "cmd",
		"c:/windows/cmd.bat":          "cmd",
		"tool.com":                    "tool",
		"x.cmd":                       "x",
		"x.exe.exe":                   "x",
		"rm. . .":                     "rm",
		"cmd.exe::$DATA":              "cmd",
		"python3.11":                  "python3.11",
		"bin/":                        "bin",
		"":                            "",
		"/":                           "",
		".":                           "",
		"..":                          "",
	} {
		if got := BinaryName(in); got != want {
			t.Errorf("BinaryName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDenyListWithWithout(t *testing.T) {
	orig := DefaultDenyList()
	before := orig.Entries()

	narrowed := orig.Without("rm", "PYTHON*", "not-an-entry")
	if _, denied := narrowed.Match("rm"); denied {
		t.Error("Without(rm) still denies rm")
	}
	if _, denied := narrowed.Match("python3"); denied {
		t.Error("Without(PYTHON*) still denies python3")
	}
	if _, denied := narrowed.Match("rmdir"); !denied {
		t.Error("Without(rm) also removed rmdir")
	}
	if len(narrowed.Entries()) != len(before)-2 {
		t.Errorf("Without removed %d entries, want 2", len(before)-len(narrowed.Entries()))
	}
	// Removing a name that is only matched through an entry removes nothing.
	if _, denied := orig.Without("python3").Match("python3"); !denied {
		t.Error("Without(python3) removed python*")
	}

	extended := orig.With("Curl", "/usr/bin/WGET.EXE", "  nc  ", "tool*", "")
	for bin, entry := range map[string]string{"curl": "curl", "CURL": "curl", "wget": "wget", "nc": "nc", "nc6": "nc", "toolbox": "tool*", "rm": "rm"} {
		if e, denied := extended.Match(bin); !denied || e != entry {
			t.Errorf("extended.Match(%q) = %q, %v; want %q", bin, e, denied, entry)
		}
	}
	if !slices.Contains(extended.Entries(), "wget") {
		t.Errorf("With(/usr/bin/WGET.EXE) stored %q, want wget", extended.Entries())
	}

	// Immutability: neither call changed the original.
	if !reflect.DeepEqual(orig.Entries(), before) {
		t.Error("With/Without changed the original list")
	}
	if _, denied := orig.Match("curl"); denied {
		t.Error("With changed the original list")
	}
	if _, denied := orig.Match("rm"); !denied {
		t.Error("Without changed the original list")
	}
	// Entries returns a copy.
	e := orig.Entries()
	e[0] = "zzz"
	if orig.Entries()[0] == "zzz" {
		t.Error("Entries exposes the list's storage")
	}
}

func TestDenyListEntries(t *testing.T) {
	d := NewDenyList("B", "a", "b", " A ", "c*", "C:\\X\\Y.EXE")
	if got, want := d.Entries(), []string{"a", "b", "c*", "y"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Entries() = %q, want %q", got, want)
	}
	for _, e := range DefaultDenyList().Entries() {
		if e != strings.ToLower(e) || strings.TrimSpace(e) != e {
			t.Errorf("default entry %q is not normalised", e)
		}
	}
	if !slices.IsSorted(DefaultDenyList().Entries()) {
		t.Error("entries are not sorted")
	}
}

func TestDenyListZeroAndStar(t *testing.T) {
	var zero DenyList
	if e, denied := zero.Match("rm"); denied {
		t.Errorf("the zero DenyList denies rm (%q)", e)
	}
	if len(zero.Entries()) != 0 {
		t.Error("the zero DenyList has entries")
	}
	all := NewDenyList("*")
	for _, bin := range []string{"grep", "ls", "/usr/bin/x"} {
		if e, denied := all.Match(bin); !denied || e != "*" {
			t.Errorf(`NewDenyList("*").Match(%q) = %q, %v`, bin, e, denied)
		}
	}
}

// TestDenyListWithWithoutNothing: adding or removing no entry returns the
// same list without rebuilding it (a preset with no extra entries pays
// nothing), and the zero value still becomes a working empty list.
func TestDenyListWithWithoutNothing(t *testing.T) {
	d := DefaultDenyList()
	for _, same := range []DenyList{d.With(), d.Without(), d.With().Without()} {
		if !reflect.DeepEqual(same.Entries(), d.Entries()) || same.key != d.key {
			t.Fatal("With()/Without() changed the list")
		}
		if same.byFirst != d.byFirst {
			t.Error("With()/Without() rebuilt the list")
		}
		if _, denied := same.Match("rm"); !denied {
			t.Error("With()/Without() lost rm")
		}
	}
	empty := DenyList{}.With()
	if empty.byFirst == nil || len(empty.Entries()) != 0 {
		t.Errorf("DenyList{}.With() = %+v", empty)
	}
	if _, denied := empty.Match("rm"); denied {
		t.Error("the empty list denies rm")
	}
	if _, denied := (DenyList{}).Without().Match("rm"); denied {
		t.Error("the zero value's Without() denies rm")
	}
}
