package programs

import (
	"slices"
	"sync"
)

// Program is everything toolgen knows about one program or a family of
// programs that behave alike. Each lives in a file of its own and is added
// to the registry with register. The zero value of every field means
// "nothing known": no grammar, no code position, no refusal, nothing forced.
type Program struct {
	// Names are the program's names, matched like deny-list entries ("sed"
	// also covers "sed4.9", "/usr/bin/sed" and "SED"; "python*" covers every
	// name that begins with "python"). No two programs share a name.
	Names []string

	// Grammar is how the program reads its options: the one grammar that
	// the template check (package validate) and the ExecTool (package
	// runtime/exec) both read.
	Grammar Grammar

	// Code are the options whose value is code (a program or a command it
	// runs, configuration that runs programs, a script): a template slot
	// there is a 613 unless an enum makes it safe, and the ExecTool refuses
	// them too, with ExecWhy.
	Code []CodeOption
	// Commands are the operands that are a command the program runs (git
	// bisect run CMD…, ssh HOST CMD…).
	Commands []CodeOperands
	// Script, when set, says the program reads a script in a language of
	// its own, which is code: the value of its CodeScript options, or its
	// first operand when no CodeScript or CodeScriptFile option is given
	// (sed).
	Script *Script
	// SubWhy, for a program with subcommands whose subcommand may be code,
	// says why ("some subcommands run programs …"): a slot there is a 613
	// unless an enum makes it safe.
	SubWhy string

	// ResponseFiles, when set, says that the program reads a word "@FILE"
	// as the words of FILE (a response file: libiberty's expandargv in
	// binutils and GCC, LLVM's response files, the JDK's @argfiles), and
	// how ("binutils' @FILE"): FILE's words become options the template
	// never wrote. A slot value that starts a word with '@' is then a 614
	// (package validate, ResponseFileValue), an enum or default value so
	// written a 613, and the ExecTool refuses every word that starts with
	// '@'. testdata/options.md records how the programs were found.
	ResponseFiles string

	// Files are the options whose value names a file the program opens
	// itself (curl -d @FILE, -T FILE, -o FILE): whatever a slot's type, the
	// files a call's command line names there must be inside the workspace
	// (FileRefs; 614), as a path slot's value must.
	Files []FileOption

	// Refuse, when set, makes the ExecTool refuse the program whatever its
	// arguments, saying why (exec.New refuses to grant it: 613).
	Refuse string
	// Rows are the ExecTool's other refusals: options, words and
	// subcommands it refuses beyond Code.
	Rows []Row
	// Check, when set, looks at what rows cannot express, after them:
	// scripts given as operands (sed, awk), read-only forms (git config),
	// operand syntax (tar's host:file). It returns the ExecTool's refusal,
	// or nil.
	Check func(c *Command) *Refusal

	// Env returns the "KEY=VALUE" entries forced on the program's
	// environment, after the kernel's own (so they win over WithEnv), which
	// make its configuration safe whatever the workspace holds; nil for
	// none. It may run a look at the program's configuration (git's) with
	// r.Look.
	Env func(r Run) []string
	// ConfigFiles are empty configuration files ("wgetrc") the kernel makes
	// once, read-only, in a private directory (Run.ConfigDir) for Env to
	// point the program at instead of the user's.
	ConfigFiles []string
	// ExecDirs returns the directories the program at path (absolute,
	// resolved) legitimately executes its own helpers from, for the execute
	// set of a confined command; never one that holds a shell or an
	// interpreter (HelperDir). nil for none.
	ExecDirs func(path string) []string
	// Read are files or directories (absolute) the program must be able to
	// read under confinement besides the kernel's system bundle.
	Read []string

	match DenyList   // Names, as a matcher
	exec  *execRules // the ExecTool's reading (execrules.go), made once
	long  []string   // LongNames, made once
}

// registry holds every program, in the order the files registered them
// (file order: Go runs init functions of a package's files in the order the
// files are given to the compiler, alphabetical under the go command).
var registry []*Program

// register adds p to the registry; a file's init function calls it.
func register(p *Program) *Program {
	registry = append(registry, p)
	return p
}

// prepareLong builds each program's LongNames once, on first use.
var prepareLong = sync.OnceFunc(func() {
	for _, p := range registry {
		p.long = p.longNames()
	}
})

// prepare builds each program's matcher once, on first use.
var prepare = sync.OnceFunc(func() {
	for _, p := range registry {
		p.match = NewDenyList(p.Names...)
	}
})

// All returns every program known, in a fixed order. The programs are
// shared: callers must not change them.
func All() []*Program {
	prepare()
	return slices.Clone(registry)
}

// lookups caches Lookup by name. Names come from templates, grants and the
// files they resolve to, mostly the same few, but a tools directory edited
// under --watch brings new ones for ever: past maxLookups entries the cache
// forgets everything.
var lookups struct {
	sync.Mutex
	m map[string]*Program
}

const maxLookups = 256

// Lookup returns the program a binary is (a bare name or a path, matched
// like a deny-list entry: "/usr/bin/sed4.9" is sed, and a name a program
// lists exactly wins), or nil when toolgen knows nothing of it.
func Lookup(binary string) *Program {
	lookups.Lock()
	p, ok := lookups.m[binary]
	lookups.Unlock()
	if ok {
		return p
	}
	prepare()
	// A name a program lists beats one matched as another's version
	// ("diff3" is diff3's, though the entry "diff" matches it as diff
	// version 3).
	var found *Program
	name := BinaryName(binary)
	for _, p := range registry {
		if slices.Contains(p.Names, name) {
			found = p
			break
		}
	}
	for _, p := range registry {
		if found != nil {
			break
		}
		if _, ok := p.match.Match(binary); ok {
			found = p
		}
	}
	lookups.Lock()
	if lookups.m == nil || len(lookups.m) >= maxLookups {
		lookups.m = make(map[string]*Program)
	}
	lookups.m[binary] = found
	lookups.Unlock()
	return found
}

// Name returns the program's first name, the one messages use.
func (p *Program) Name() string { return p.Names[0] }
