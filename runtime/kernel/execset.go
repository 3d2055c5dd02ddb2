package kernel

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// interpCache maps a program's path to what loadInterp found.
var interpCache sync.Map // string -> interpInfo

// interpInfo is what a program file names as its interpreter.
type interpInfo struct {
	elf    string // the ELF interpreter (dynamic loader), "" for none
	script string // the #! interpreter of a script, "" when not a script
}

// loadInterp reads the program at path once per process: the dynamic loader
// an ELF file names (PT_INTERP), or the interpreter of a #! script.
func loadInterp(path string) interpInfo {
	if v, ok := interpCache.Load(path); ok {
		return v.(interpInfo)
	}
	var info interpInfo
	if f, err := os.Open(path); err == nil {
		info = readInterp(f)
		f.Close()
	}
	interpCache.Store(path, info)
	return info
}

// readInterp reads the interpreter f names.
func readInterp(f *os.File) interpInfo {
	var head [256]byte
	n, _ := io.ReadFull(f, head[:])
	if n >= 2 && head[0] == '#' && head[1] == '!' {
		line, _, _ := bytes.Cut(head[2:n], []byte{'\n'})
		fields := bytes.Fields(line)
		if len(fields) == 0 {
			return interpInfo{script: "(none)"}
		}
		return interpInfo{script: string(fields[0])}
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return interpInfo{}
	}
	defer ef.Close()
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			b, err := io.ReadAll(p.Open())
			if err == nil {
				return interpInfo{elf: string(bytes.TrimRight(b, "\x00"))}
			}
		}
	}
	return interpInfo{}
}

// execSet is the program at path and its dynamic loader (the ELF
// interpreter it names): what executing it needs, helpers aside.
func execSet(path string) []string {
	set := []string{path}
	if in := loadInterp(path); in.elf != "" {
		set = append(set, in.elf)
	}
	return set
}

// execSetOf is ExecSet for one program: execSet and the helper directories
// the Programs hook declares for it.
func (k *Kernel) execSetOf(path string) []string {
	set := execSet(path)
	for _, d := range k.programExecDirs(path) {
		if !slices.Contains(set, d) {
			set = append(set, d)
		}
	}
	return set
}

// errScript is wrapped by the refusal to run a script confined.
var errScript = errors.New("is a script")

// checkConfinable refuses a script when its execution is confined: its
// interpreter is never in the execute set, so it would fail with a bare
// "Permission denied"; this says why instead.
func checkConfinable(path string) error {
	if in := loadInterp(path); in.script != "" {
		return fmt.Errorf("kernel: %s %w for %s: a confined command may execute only its own program, "+
			"never a shell or an interpreter (%w)", path, errScript, in.script, ErrNotExecutable)
	}
	return nil
}
