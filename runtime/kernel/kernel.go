package kernel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Defaults used by New when no Option overrides them.
const (
	// DefaultTimeout is how long a command may run before its process group
	// is killed.
	DefaultTimeout = 30 * time.Second
	// DefaultOutputLimit is the number of output bytes the model sees at most
	// (not counting the omission marker).
	DefaultOutputLimit = 2048
	// DefaultPath is the PATH children get and LookPath searches.
	DefaultPath = "/usr/local/bin:/usr/bin:/bin"
)

// Kernel runs argv with no shell, cwd locked to the workspace. Safe for
// concurrent use. The zero value is not usable; build one with New.
type Kernel struct {
	workspace string
	timeout   time.Duration
	limit     int
	path      string
	dirs      []string // path split into its (absolute) entries
	env       []string
	wrapper   func(argv []string) ([]string, error)
	confiner  Confiner // confine.go
	access    Access   // confine.go; set by WithAccess
}

// config collects what the options set; New validates it.
type config struct {
	timeout  time.Duration
	limit    int
	path     string
	env      []string
	wrapper  func(argv []string) ([]string, error)
	confiner Confiner
}

// Option configures a Kernel in New. A nil Option is ignored.
type Option func(*config)

// WithTimeout sets how long one command may run, counted from just before it
// is started; when it elapses the process group is killed and the Result has
// ExitCode 124 and TimedOut set. Default DefaultTimeout (30s). New rejects
// d <= 0.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithOutputLimit sets the model-visible output cap in bytes: Result.Output
// holds at most n bytes of the command's output, plus the omission marker when
// the middle was dropped. Default DefaultOutputLimit (2048). New rejects n <= 0.
func WithOutputLimit(n int) Option { return func(c *config) { c.limit = n } }

// WithEnv adds "KEY=VALUE" entries to the scrubbed environment children get.
// Repeated calls accumulate; a later entry replaces an earlier one (or a
// default such as LANG) with the same key. New rejects an entry without '=',
// with an empty key or a NUL byte, and one setting PATH (use WithPath).
func WithEnv(kv ...string) Option {
	return func(c *config) { c.env = append(c.env, kv...) }
}

// WithPath sets the PATH children get and LookPath searches, instead of
// DefaultPath ("/usr/local/bin:/usr/bin:/bin"). The host's PATH is never used.
// New rejects an empty PATH and one with an empty or relative entry.
func WithPath(path string) Option { return func(c *config) { c.path = path } }

// WithWrapper sets a hook applied to the resolved argv (argv[0] absolute) just
// before exec, e.g. to re-exec through a sandboxing trampoline. The hook gets a
// copy it may modify; the argv it returns is executed as is and its argv[0]
// must be an absolute path. A hook error means the command is not started
// (exit 126). Result.Argv still reports the unwrapped argv. Concurrent Runs
// call the hook concurrently. nil means none.
func WithWrapper(w func(argv []string) ([]string, error)) Option {
	return func(c *config) { c.wrapper = w }
}

// New returns a Kernel locked to workspace, which must exist and be a
// directory; it is stored as an absolute path with symlinks resolved. Errors
// are prefixed "kernel: ".
func New(workspace string, opts ...Option) (*Kernel, error) {
	c := config{timeout: DefaultTimeout, limit: DefaultOutputLimit, path: DefaultPath}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	ws, err := resolveWorkspace(workspace)
	if err != nil {
		return nil, err
	}
	if c.timeout <= 0 {
		return nil, fmt.Errorf("kernel: timeout must be positive, got %v", c.timeout)
	}
	if c.limit <= 0 {
		return nil, fmt.Errorf("kernel: output limit must be positive, got %d", c.limit)
	}
	dirs, err := splitPath(c.path)
	if err != nil {
		return nil, err
	}
	env, err := buildEnv(c.path, ws, c.env)
	if err != nil {
		return nil, err
	}
	return &Kernel{
		workspace: ws,
		timeout:   c.timeout,
		limit:     c.limit,
		path:      c.path,
		dirs:      dirs,
		env:       env,
		wrapper:   c.wrapper,
		confiner:  c.confiner,
	}, nil
}

// Workspace returns the absolute, symlink-free workspace directory: every
// child's working directory and HOME.
func (k *Kernel) Workspace() string { return k.workspace }

// Timeout returns how long one command may run.
func (k *Kernel) Timeout() time.Duration { return k.timeout }

// OutputLimit returns the model-visible output cap in bytes.
func (k *Kernel) OutputLimit() int { return k.limit }

// Env returns a copy of the exact environment children get.
func (k *Kernel) Env() []string { return slices.Clone(k.env) }

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

func splitPath(path string) ([]string, error) {
	if path == "" {
		return nil, errors.New("kernel: PATH is empty")
	}
	dirs := filepath.SplitList(path)
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return nil, fmt.Errorf("kernel: PATH entry %q is not absolute", d)
		}
	}
	return dirs, nil
}

// buildEnv returns the scrubbed environment: the fixed entries, then the
// extras, a later key replacing an earlier one in place.
func buildEnv(path, workspace string, extras []string) ([]string, error) {
	env := []string{
		"PATH=" + path,
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		"HOME=" + workspace,
	}
	for _, kv := range extras {
		key, _, ok := strings.Cut(kv, "=")
		switch {
		case !ok || key == "":
			return nil, fmt.Errorf("kernel: env entry %q is not KEY=VALUE", kv)
		case strings.ContainsRune(kv, 0):
			return nil, fmt.Errorf("kernel: env entry %q holds a NUL byte", kv)
		case key == "PATH":
			return nil, errors.New("kernel: env entry sets PATH; use WithPath")
		}
		i := slices.IndexFunc(env, func(e string) bool { return strings.HasPrefix(e, key+"=") })
		if i >= 0 {
			env[i] = kv
		} else {
			env = append(env, kv)
		}
	}
	return env, nil
}
