package programs

import (
	"path/filepath"
	"strings"
)

// Go: go build, test, vet, run and the like, and gofmt. The compiler and
// the test binaries it builds run from the call's scratch directory
// (GOTMPDIR); the build cache (GOCACHE) is the workspace's own; the
// module cache is the user's, read only, unless the tool names hosts (it
// may then download, into a module cache of the workspace's own). No
// toolchain download (GOTOOLCHAIN=local) and, offline, no module proxy
// (GOPROXY=off): a missing module is an error, not a fetch.
var _ = registerToolchain(&Toolchain{
	Name:     "go",
	Programs: []string{"go", "gofmt"},
	Lifts:    []string{"go"},
	Form:     goForm,
	Install:  goInstall,
	Reads:    goReads,
	Caches:   []string{"go-build", "go-path"},
	Env:      goEnv,
})

// goSubs are the go subcommands a runs_code tool may run: generate runs
// the commands of //go:generate lines, tool runs the tool its arguments
// name, bug opens a browser, telemetry changes the user's configuration.
var goSubs = []string{"build", "test", "vet", "run", "list", "fmt", "mod", "work", "version", "env", "doc", "fix", "clean", "get", "install"}

// goForm accepts a go template that the ExecTool's go rows accept (no
// -exec, -toolexec, -vettool, generate, go run of a module@version …),
// whose subcommand is one of goSubs, whose file options take path slots,
// and whose operands cannot name a module@version to fetch and build.
func goForm(prog string, words []TemplateWord) string {
	if prog == "gofmt" {
		return ""
	}
	sub, at := subcommand(words)
	fetch := ""
	if sub == "run" || sub == "install" || sub == "get" {
		fetch = noSlotAdmits(operands(words[at+1:]), 0, '@', "go "+sub+" reads pkg@version as a module to download and build")
	}
	return firstOf(
		allowedSub("go", words, goSubs),
		execRowsForm("go", words),
		codeOptions(words, "-exec", "--exec", "-toolexec", "--toolexec", "-vettool", "--vettool"),
		pathOptions(words, "-C", "-modfile", "--modfile", "-overlay", "--overlay", "-pgo", "--pgo"),
		fetch,
	)
}

// operands returns the words that are no option: those not starting
// with a dash (a boolean slot's word is its option).
func operands(words []TemplateWord) []TemplateWord {
	var out []TemplateWord
	for _, w := range words {
		if !strings.HasPrefix(w.Text, "-") && !(len(w.Slots) == 1 && w.Slots[0].Flag != "") {
			out = append(out, w)
		}
	}
	return out
}

// goInstall is where Go is installed outside the kernel's PATH: the
// official archive's /usr/local/go/bin, Debian's /usr/lib/go/bin, and
// $GOROOT/bin.
func goInstall(env func(string) string) []string {
	dirs := []string{"/usr/local/go/bin", "/usr/lib/go/bin"}
	if r := env("GOROOT"); filepath.IsAbs(r) {
		dirs = append(dirs, filepath.Join(r, "bin"))
	}
	return dirs
}

// goReads is the Go installation (GOROOT: the directory above the go
// binary's bin) and the user's module cache, read only.
func goReads(path string, env func(string) string) []string {
	var dirs []string
	if real, err := filepath.EvalSymlinks(path); err == nil && filepath.Base(filepath.Dir(real)) == "bin" {
		dirs = append(dirs, filepath.Dir(filepath.Dir(real)))
	}
	if m := userModCache(env); m != "" {
		dirs = append(dirs, m)
	}
	return dirs
}

// userModCache is the user's Go module cache: GOMODCACHE, else the first
// GOPATH entry's pkg/mod, else $HOME/go/pkg/mod; "" when none can be
// named.
func userModCache(env func(string) string) string {
	if m := env("GOMODCACHE"); filepath.IsAbs(m) {
		return filepath.Clean(m)
	}
	if gp, _, _ := strings.Cut(env("GOPATH"), string(filepath.ListSeparator)); filepath.IsAbs(gp) {
		return filepath.Join(gp, "pkg", "mod")
	}
	if h := env("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, "go", "pkg", "mod")
	}
	return ""
}

// goEnv points the go command at the workspace's build cache and the
// call's scratch directory, and keeps it offline unless the tool names
// hosts.
func goEnv(b Build) []string {
	env := []string{
		"GOCACHE=" + filepath.Join(b.Cache, "go-build"),
		"GOPATH=" + filepath.Join(b.Cache, "go-path"),
		"GOTMPDIR=" + b.Scratch,
		"GOTOOLCHAIN=local",
		"GOENV=off",
		"GOTELEMETRY=off",
	}
	if b.Online {
		return append(env, "GOMODCACHE="+filepath.Join(b.Cache, "go-path", "pkg", "mod"))
	}
	env = append(env, "GOPROXY=off")
	if m := userModCache(b.Env); m != "" {
		env = append(env, "GOMODCACHE="+m)
	}
	return env
}
