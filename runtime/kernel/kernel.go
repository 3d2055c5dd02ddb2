package kernel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// Defaults used by New when no Option overrides them.
const (
	// DefaultTimeout is how long a command may run before its process group
	// is killed.
	DefaultTimeout = 30 * time.Second
	// DefaultOutputLimit is the number of output bytes the model sees at most
	// (not counting the omission marker).
	DefaultOutputLimit = 2048
	// DefaultPath is the PATH children get and LookPath searches on Linux
	// and the other Unix systems but macOS (see DefaultPathFor).
	DefaultPath = "/usr/local/bin:/usr/bin:/bin"
)

// Kernel runs argv with no shell, cwd locked to the workspace. Safe for
// concurrent use. The zero value is not usable; build one with New.
type Kernel struct {
	workspace string
	timeout   time.Duration
	// maxTimeout caps WithTimeoutOf (timeout.go); cpuFromTimeout says
	// that limits.CPU is the default, the timeout, and follows it there.
	maxTimeout     time.Duration
	cpuFromTimeout bool
	limit          int
	path           string
	dirs           []string // path split into its (absolute) entries
	env            []string // without the per-program entries (the Programs hook's)
	home           string   // the children's HOME: empty, private, never the workspace
	mode           sandbox.Mode
	read           []string   // WithReadable
	limits         Limits     // limits.go
	access         Access     // confine.go; set by WithAccess
	egress         EgressFunc // egress.go; set by WithEgress
	programs       Programs   // programs.go; set by WithPrograms
	buildRoot      string     // build.go: the root of the build caches
	scratch        string     // build.go: the scratch directory of the one call this copy of the kernel runs
	protect        []string   // protect.go; set by WithProtected
	// separateStderr keeps stderr apart from stdout (stderr.go).
	separateStderr bool
	inProcess      bool // fork calls from this process, not the spawner process
}

// config collects what the options set; New validates it.
type config struct {
	timeout time.Duration
	// maxTimeout is WithMaxTimeout's, when hasMaxTimeout (timeout.go).
	maxTimeout    time.Duration
	hasMaxTimeout bool
	limit         int
	path          string
	pathSet       bool // WithPath was given; otherwise DefaultPathFor
	env           []string
	mode          sandbox.Mode
	read          []string
	limits        Limits
	egress        EgressFunc // egress.go
	programs      Programs   // programs.go
	// buildRoot is WithBuildCache's directory (build.go); "" for the
	// default.
	buildRoot string
	protect   []string // protect.go
	// inProcess forks the calls from this process's threads instead of
	// the spawner process (the package's tests of those threads set it).
	inProcess bool
}

// Option configures a Kernel in New. A nil Option is ignored.
type Option func(*config)

// WithTimeout sets how long one command may run, counted from just before it
// is started; when it elapses the process group is killed and the Result has
// ExitCode 124 and TimedOut set. Default DefaultTimeout (30s). New rejects
// d <= 0 and a d longer than WithMaxTimeout's maximum. A tool that asks for
// its own timeout gets a derived kernel (WithTimeoutOf).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithOutputLimit sets the model-visible output cap in bytes: Result.Output
// holds at most n bytes of the command's output, plus the omission marker when
// the middle was dropped. Default DefaultOutputLimit (2048). New rejects n <= 0
// and n > MaxOutputLimit (1 MiB).
func WithOutputLimit(n int) Option { return func(c *config) { c.limit = n } }

// WithEnv adds "KEY=VALUE" entries to the scrubbed environment children get.
// Repeated calls accumulate; a later entry replaces an earlier one (or a
// default such as LANG) with the same key. New rejects an entry without '=',
// with an empty key or a NUL byte, one setting PATH (use WithPath), and one
// setting HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME or XDG_DATA_HOME: those
// always name the kernel's empty private directory.
func WithEnv(kv ...string) Option {
	return func(c *config) { c.env = append(c.env, kv...) }
}

// WithPath sets the PATH children get and LookPath searches, instead of the
// system's default (DefaultPathFor: "/usr/local/bin:/usr/bin:/bin" on Linux).
// The host's PATH is never used. New rejects an empty PATH and one with an
// empty or relative entry (see CheckPath).
func WithPath(path string) Option { return func(c *config) { c.path, c.pathSet = path, true } }

// CheckPath returns the error New gives for path as WithPath's value on this
// system, or nil: an empty PATH, or an entry that is empty or not absolute.
func CheckPath(path string) error {
	_, err := splitPath(path)
	return err
}

// New returns a Kernel locked to workspace, which must exist and be a
// directory; it is stored as an absolute path with symlinks resolved. Errors
// are prefixed "kernel: ".
func New(workspace string, opts ...Option) (*Kernel, error) {
	c := config{timeout: DefaultTimeout, limit: DefaultOutputLimit, mode: sandbox.DefaultMode,
		limits: Limits{Memory: DefaultMemoryLimit, Processes: DefaultProcessLimit}}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if !c.pathSet {
		path, err := DefaultPathFor(runtime.GOOS, os.Getenv)
		if err != nil {
			return nil, err
		}
		c.path = path
	}
	ws, err := resolveWorkspace(workspace)
	if err != nil {
		return nil, err
	}
	if c.timeout <= 0 {
		return nil, fmt.Errorf("kernel: timeout must be positive, got %v", c.timeout)
	}
	if err := c.checkMaxTimeout(); err != nil { // timeout.go
		return nil, err
	}
	if c.limit <= 0 {
		return nil, fmt.Errorf("kernel: output limit must be positive, got %d", c.limit)
	}
	if c.limit > MaxOutputLimit {
		return nil, fmt.Errorf("kernel: output limit %d is more than MaxOutputLimit (%d bytes)", c.limit, MaxOutputLimit)
	}
	dirs, err := splitPath(c.path)
	if err != nil {
		return nil, err
	}
	cpuFromTimeout := c.limits.CPU == 0
	if cpuFromTimeout {
		c.limits.CPU = c.timeout
	}
	if err := c.limits.check(); err != nil {
		return nil, err
	}
	if err := checkMode(c.mode); err != nil {
		return nil, err
	}
	read, err := cleanAbs(c.read)
	if err != nil {
		return nil, err
	}
	root, err := buildRootOf(c.buildRoot)
	if err != nil {
		return nil, err
	}
	protect, err := cleanAbs(c.protect)
	if err != nil {
		return nil, err
	}
	home, err := privateHome()
	if err != nil {
		return nil, err
	}
	env, err := buildEnvOn(runtime.GOOS, os.Getenv, c.path, home, c.env)
	if err != nil {
		return nil, err
	}
	return &Kernel{
		workspace:      ws,
		timeout:        c.timeout,
		maxTimeout:     c.maxTimeout,
		cpuFromTimeout: cpuFromTimeout,
		limit:          c.limit,
		path:           c.path,
		dirs:           dirs,
		env:            env,
		home:           home,
		mode:           c.mode,
		read:           read,
		limits:         c.limits,
		egress:         c.egress,
		programs:       c.programs,
		buildRoot:      root,
		protect:        protect,
		inProcess:      c.inProcess,
	}, nil
}

// Workspace returns the absolute, symlink-free workspace directory: every
// child's working directory.
func (k *Kernel) Workspace() string { return k.workspace }

// Timeout returns how long one command may run.
func (k *Kernel) Timeout() time.Duration { return k.timeout }

// OutputLimit returns the model-visible output cap in bytes.
func (k *Kernel) OutputLimit() int { return k.limit }

// Env returns a copy of the environment every child gets, before the
// entries the Programs hook gives its program (see ChildEnv).
func (k *Kernel) Env() []string { return slices.Clone(k.env) }

// Home returns the directory children get as HOME, XDG_CONFIG_HOME,
// XDG_CACHE_HOME and XDG_DATA_HOME: empty, owned by this user, not writable
// by confined children, and never the workspace, so that no configuration a
// repository ships (.gitconfig, .curlrc, ...) is read as the user's.
func (k *Kernel) Home() string { return k.home }

func resolveWorkspace(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("kernel: workspace is empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("kernel: workspace: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("kernel: workspace: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("kernel: workspace: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("kernel: workspace %s is not a directory", real)
	}
	return real, nil
}

// splitPath splits path as this system separates its entries (pathrules.go).
func splitPath(path string) ([]string, error) { return splitPathOn(runtime.GOOS, path) }

// buildEnvOn returns the scrubbed environment on goos (getenv reads the
// host's, for what the system needs: systemEnvFor): the fixed entries,
// then the extras, a later key replacing an earlier one in place.
func buildEnvOn(goos string, getenv func(string) string, path, home string, extras []string) ([]string, error) {
	env := []string{
		"PATH=" + path,
		childLocale,
	}
	homeKeys := homeKeysFor(goos)
	for _, key := range homeKeys {
		env = append(env, key+"="+home)
	}
	env = append(env, systemEnvFor(goos, getenv)...)
	for _, kv := range extras {
		key, _, ok := strings.Cut(kv, "=")
		switch {
		case !ok || key == "":
			return nil, fmt.Errorf("kernel: env entry %q is not KEY=VALUE", kv)
		case strings.ContainsRune(kv, 0):
			return nil, fmt.Errorf("kernel: env entry %q holds a NUL byte", kv)
		case key == "PATH":
			return nil, errors.New("kernel: env entry sets PATH; use WithPath")
		case slices.Contains(homeKeys, key):
			return nil, fmt.Errorf("kernel: env entry sets %s, which always names the kernel's empty private directory", key)
		}
		env = setEnv(env, kv)
	}
	return env, nil
}

// childLocale is the locale of every command: UTF-8 characters (what
// matches a character, what is a letter, how output is encoded), and the
// C locale's builtin everything else, which C.UTF-8's other categories
// equal but for the name of their codeset. Setting only LC_CTYPE spares
// each process a C program starts (every process of a build, say) the
// loading of twelve locale files of no effect: 0.3 ms per process on a
// virtual machine whose page faults are slow (docs/performance.md).
const childLocale = "LC_CTYPE=C.UTF-8"

// homeKeys name the directories where programs look for the user's
// configuration; they all point to the kernel's empty private directory.
var homeKeys = []string{"HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"}

// windowsHomeKeys are homeKeys' Windows counterparts (the profile, the
// roaming and local application data, the temporary directory).
var windowsHomeKeys = []string{"USERPROFILE", "APPDATA", "LOCALAPPDATA", "TEMP", "TMP"}

// homeKeysFor returns the keys that name the kernel's private directory on
// goos: homeKeys, and on Windows windowsHomeKeys too.
func homeKeysFor(goos string) []string {
	if goos == "windows" {
		return append(slices.Clone(homeKeys), windowsHomeKeys...)
	}
	return homeKeys
}

// setEnv sets kv in env, replacing an entry with the same key in place.
func setEnv(env []string, kv string) []string {
	key, _, _ := strings.Cut(kv, "=")
	i := slices.IndexFunc(env, func(e string) bool { return strings.HasPrefix(e, key+"=") })
	if i >= 0 {
		env[i] = kv
		return env
	}
	return append(env, kv)
}

// cleanAbs returns paths cleaned, or an error naming one that is relative.
func cleanAbs(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("kernel: readable path %q is not absolute", p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out, nil
}
