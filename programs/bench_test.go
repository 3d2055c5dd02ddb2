package programs

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkProgram is the per-call cost of judging the file a binary
// resolves to (what ExecTool pays on every call), against the name-only
// DenyList.Match it replaces as the baseline.
func BenchmarkProgram(b *testing.B) {
	d := DefaultDenyList()
	for _, p := range installed("/usr/bin/grep", "/usr/bin/egrep", "/usr/bin/python3") {
		b.Run("baseline-Match/"+filepath.Base(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Match(p)
			}
		})
		b.Run("Program/"+filepath.Base(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d.Program(p)
			}
		})
	}
}

// BenchmarkDirIndex is what a process pays once per system directory for
// the same-file rule of a program with more than one link (/usr/bin/grep
// in some images): the directory's denied programs, indexed by inode.
// Baseline: listing the directory alone.
func BenchmarkDirIndex(b *testing.B) {
	d := DefaultDenyList()
	b.Run("baseline-list", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open("/usr/bin")
			if err != nil {
				b.Fatal(err)
			}
			f.Readdirnames(-1)
			f.Close()
		}
	})
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			indexes.Lock()
			indexes.m = nil
			indexes.Unlock()
			if len(d.index("/usr/bin", true).files) == 0 {
				b.Fatal("no denied program indexed in /usr/bin")
			}
		}
	})
}

// BenchmarkDenyListPreset is what assembling a preset pays for its deny
// list with no extra or allowed entries: DefaultDenyList().With().Without().
// Baseline: one With of a single entry, which must rebuild.
func BenchmarkDenyListPreset(b *testing.B) {
	d := DefaultDenyList()
	b.Run("baseline-With1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.With("curl")
		}
	})
	b.Run("With-Without-nothing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.With().Without()
		}
	})
}

// BenchmarkProgramCold is Program's first look at a program with two links
// in a process: every system bin directory indexed (see BenchmarkDirIndex
// for one). Baseline: the same look with the indexes cached.
func BenchmarkProgramCold(b *testing.B) {
	d := DefaultDenyList()
	dir := b.TempDir()
	prog := filepath.Join(dir, "tool")
	if err := os.WriteFile(prog, []byte("\x7fELF"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Link(prog, filepath.Join(dir, "tool2")); err != nil {
		b.Fatal(err)
	}
	b.Run("baseline-cached", func(b *testing.B) {
		d.Program(prog)
		for b.Loop() {
			if _, denied := d.Program(prog); denied {
				b.Fatal("denied")
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			indexes.Lock()
			indexes.m = nil
			indexes.Unlock()
			if _, denied := d.Program(prog); denied {
				b.Fatal("denied")
			}
		}
	})
}
