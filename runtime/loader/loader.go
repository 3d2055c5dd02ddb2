package loader

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/nanogpt/toolgen/internal/validate"
	"github.com/nanogpt/toolgen/programs"
	"github.com/nanogpt/toolgen/runtime/base"
	"github.com/nanogpt/toolgen/runtime/kernel"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// DefaultDebounce is how long Watch waits after the last change in the
// directory before reloading: editors write a file in several steps.
const DefaultDebounce = 50 * time.Millisecond

// maxDelay bounds how long a burst of changes can put a reload off: a file
// written without pause is still reflected within this time.
const maxDelay = 150 * time.Millisecond

// Known describes a tool defined outside the directory, by name. See
// WithKnown.
type Known struct {
	// Source names where the tool is defined ("builtin grep_text", a
	// package path), for the conflict message.
	Source string
	// Digest is the tool.Digest the tool was generated from, for a generated
	// tool; empty otherwise.
	Digest string
}

// Option configures New.
type Option func(*config)

type config struct {
	deny     programs.DenyList
	known    func(name string) (Known, bool)
	maxSize  int64
	maxTotal int64
	debounce time.Duration
	noCreate bool
	only     []string
	// untrusted turns off the ownership and permission checks (trust.go).
	untrusted bool
	// check is an extra rule every Spec must pass (WithSpecCheck).
	check func(*tool.Spec) error
	// refused, when set, is why no file of the directory is loaded
	// (WithRefusal).
	refused string
	// content is a rule on each file's bytes (WithContentCheck).
	content func(file, name string, data []byte) error
}

// WithRefusal refuses every descriptor file of the directory without
// reading it: each file present gets a 613 naming it, with reason as the
// message (a file added later too, under Watch), and no tool loads. Package
// preset uses it for a tools directory inside the workspace. An empty
// reason refuses nothing.
func WithRefusal(reason string) Option {
	return func(c *config) { c.refused = reason }
}

// WithSpecCheck adds a rule every descriptor's Spec must pass after the
// validator's own, such as "no tool in this directory may write". An error
// should be a 613 *tool.Error with Field set; it is reported for the file
// like any other problem, and the file's tool is not loaded.
func WithSpecCheck(check func(*tool.Spec) error) Option {
	return func(c *config) { c.check = check }
}

// WithDenyList sets the deny list descriptors are validated with; without
// it, programs.DefaultDenyList.
func WithDenyList(d programs.DenyList) Option {
	return func(c *config) { c.deny = d }
}

// WithKnown tells the loader which tool names are defined elsewhere (built-in,
// generated or other code-form tools). A descriptor with such a name is
//
//   - skipped silently when Known.Digest equals its tool.Digest: it is the
//     source of a generated tool that is already compiled in;
//   - a 613 "changed since generation, run go generate" when Known.Digest is
//     set and differs;
//   - a 613 naming both places otherwise.
//
// lookup is called at every (re)load, from several goroutines at once; it
// must be safe for concurrent use. Without this option no name is known.
func WithKnown(lookup func(name string) (Known, bool)) Option {
	return func(c *config) { c.known = lookup }
}

// WithMaxFileSize sets the size limit of one file (default MaxFileSize,
// 1 MiB). n <= 0 keeps the default.
func WithMaxFileSize(n int64) Option { return func(c *config) { c.maxSize = n } }

// MaxTotalSize is the default limit of the bytes of all the descriptor files
// of a directory loaded together: 64 MiB, a hundred thousand descriptors of
// usual size. It bounds the loader's memory whatever the directory holds
// (thousands of hard links to one 1 MiB file cost no disk).
const MaxTotalSize = 64 << 20

// WithMaxTotalSize sets the limit of the bytes of all the files loaded
// together (default MaxTotalSize). Files are counted in name order; a file
// that would take the sum past n is a 613 and is not read (a file that loaded
// before keeps its last good version, as a broken one does).
func WithMaxTotalSize(n int64) Option { return func(c *config) { c.maxTotal = n } }

// WithDebounce sets how long Watch waits for the directory to be quiet
// before reloading (default DefaultDebounce). A burst of changes is reloaded
// at most 150 ms after it began, whatever the debounce. d <= 0 keeps the
// default.
func WithDebounce(d time.Duration) Option { return func(c *config) { c.debounce = d } }

// WithoutCreate makes New fail when the directory does not exist instead of
// creating it: for commands that only read, where a mistyped directory
// should be an error, not a new empty directory.
func WithoutCreate() Option { return func(c *config) { c.noCreate = true } }

// WithFiles restricts the loader to the named files of the directory (base
// names ending in .tool.json); the others are ignored. toolgen check FILE
// uses it.
func WithFiles(names ...string) Option {
	return func(c *config) { c.only = append(c.only, names...) }
}

// Loader is the DescriptorToolLoader: it turns the *.tool.json files of one
// directory into tools, file by file, and keeps them current with Watch.
// It is safe for concurrent use.
type Loader struct {
	kernel *kernel.Kernel
	cfg    config
	set    *fileSet[*base.CommandToolBase]
	armed  armedSignal
}

// Loaded is one tool loaded from a descriptor file.
type Loaded struct {
	// Tool is the tool, built by package base from the file's Spec.
	Tool tool.SpecTool
	// File is the descriptor's path: the loader's directory joined with the
	// file name.
	File string
	// Digest is the tool.Digest of the tool's Spec.
	Digest string
}

// Entry returns l as a registry entry of the descriptor form, its source
// being the file.
func (l Loaded) Entry() tool.Entry {
	return tool.Entry{Tool: l.Tool, Form: tool.FormDescriptor, Source: l.File}
}

// Snapshot is the loader's state at one moment; it is never modified after
// it is handed out.
type Snapshot struct {
	// Tools are the tools that load, sorted by name. A file that is broken
	// now but loaded before contributes its last good version.
	Tools []Loaded
	// Problems are the 613 errors, sorted by file: one per broken file (an
	// errors.Join when the file has several problems; tool.Flatten splits
	// it) and one per file whose tool name another file or a known tool
	// already has.
	Problems []error
}

// New returns a loader of the *.tool.json files in dir, creating dir when it
// is missing (unless WithoutCreate). Tools run on k. Nothing is read until
// LoadAll or Watch.
func New(dir string, k *kernel.Kernel, opts ...Option) (*Loader, error) {
	if k == nil {
		return nil, errors.New("loader: nil kernel")
	}
	if dir == "" {
		return nil, errors.New("loader: empty directory name")
	}
	c := config{deny: programs.DefaultDenyList(), maxSize: MaxFileSize, debounce: DefaultDebounce}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.maxSize <= 0 {
		c.maxSize = MaxFileSize
	}
	if c.maxTotal <= 0 {
		c.maxTotal = MaxTotalSize
	}
	if c.debounce <= 0 {
		c.debounce = DefaultDebounce
	}
	if !c.noCreate {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("loader: %w", err)
		}
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("loader: tools directory: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("loader: %s is not a directory", dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return nil, fmt.Errorf("loader: %w", err)
	}
	if !c.untrusted {
		info, err := os.Stat(real)
		if err != nil {
			return nil, fmt.Errorf("loader: %w", err)
		}
		if err := checkDirTrust(dir, info); err != nil {
			return nil, err
		}
	}
	l := &Loader{kernel: k, cfg: c}
	l.set = &fileSet[*base.CommandToolBase]{
		kind:     fileKind[*base.CommandToolBase]{ext: tool.DescriptorExt, noun: "tool", parse: l.parse},
		dir:      filepath.Clean(dir),
		real:     real,
		maxSize:  c.maxSize,
		maxTotal: c.maxTotal,
		trusted:  !c.untrusted,
		refused:  c.refused,
		content:  c.content,
		files:    map[string]*fileState[*base.CommandToolBase]{},
	}
	if c.only != nil {
		l.set.only = map[string]bool{}
		for _, name := range c.only {
			l.set.only[filepath.Base(name)] = true
		}
	}
	return l, nil
}

// Dir returns the directory, as given to New (cleaned).
func (l *Loader) Dir() string { return l.set.dir }

// LoadAll reads every *.tool.json file of the directory again and returns
// the tools that load and the problems (see Snapshot). One bad file never
// stops the others. Files starting with a dot (editor lock and swap files)
// and files of other names are ignored, and so are subdirectories. When the
// directory itself cannot be read, the first problem says so (it is not a
// 613) and the tools of the last load are kept.
func (l *Loader) LoadAll() ([]Loaded, []error) {
	_, err := l.set.scan()
	s := l.Snapshot()
	if err != nil {
		s.Problems = append([]error{err}, s.Problems...)
	}
	return s.Tools, s.Problems
}

// Snapshot returns the current tools and problems without reading anything.
func (l *Loader) Snapshot() Snapshot {
	items, problems := l.set.view()
	s := Snapshot{Problems: slices.Clone(problems)}
	if len(items) > 0 {
		s.Tools = make([]Loaded, len(items))
		for i, it := range items {
			s.Tools[i] = Loaded{Tool: it.item, File: it.file, Digest: it.key}
		}
	}
	return s
}

// parse turns one descriptor file into a tool: decode, validate (THE
// validator, through base.New), check against the known tools and check
// the examples (base.CheckExamples: nothing runs). Every problem is a 613
// located in the file.
func (l *Loader) parse(file string, data []byte) (parsed[*base.CommandToolBase], error) {
	var p parsed[*base.CommandToolBase]
	// Decoded and validated together: every independent problem of the
	// file is reported at once. A valid Spec with problems of single fields
	// (an unknown one, say) is checked on, so its other problems (examples)
	// are reported with them, as toolgen generate reports them.
	spec, tmpl, pos, decoded := validate.Descriptor(file, data, validate.WithDenyList(l.cfg.deny))
	if tmpl == nil {
		return p, decoded
	}
	fail := func(errs ...error) error { return pos.Locate(errors.Join(append([]error{decoded}, errs...)...)) }
	p.name, p.key = spec.Name, tool.Digest(spec)
	p.at, _ = pos.Of("name")
	known, isKnown := Known{}, false
	if l.cfg.known != nil {
		known, isKnown = l.cfg.known(spec.Name)
	}
	if decoded == nil && isKnown && known.Digest != "" && known.Digest == p.key {
		p.skip = true // compiled in already: the generated tool serves it
		return p, nil
	}
	b, err := base.New(spec, l.kernel, base.WithDenyList(l.cfg.deny))
	if err != nil {
		return p, fail(err)
	}
	if isKnown {
		return p, fail(knownConflict(spec.Name, known))
	}
	if l.cfg.check != nil {
		if err := l.cfg.check(&spec); err != nil {
			return p, fail(err)
		}
	}
	if errs := b.CheckExamples(); len(errs) > 0 || decoded != nil {
		return p, fail(errs...)
	}
	p.item = b
	return p, nil
}

func knownConflict(name string, k Known) error {
	if k.Digest != "" {
		return tool.SpecErrorf("name", "tool %q differs from the generated tool of that name (%s): the descriptor changed since generation, run go generate (or, if this file is not its source, rename the tool)", name, k.Source)
	}
	return tool.SpecErrorf("name", "tool name %q is already defined by %s", name, k.Source)
}
