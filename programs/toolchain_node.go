package programs

import (
	"path/filepath"
	"strings"
)

// Node: npm, pnpm and yarn scripts (test, run, start …) and node's own
// test runner (node --test). The package manager is offline unless the
// tool names hosts, caches in the workspace's build cache, and reads no
// user or global configuration (see interpreters.go for the npm_config_*
// entries forced on every npm). npm, pnpm and yarn are scripts run by
// node: a runs_code tool of theirs passes node's deny-list entry too.
var _ = registerToolchain(&Toolchain{
	Name:     "node",
	Programs: []string{"npm", "pnpm", "yarn", "yarnpkg", "node", "nodejs"},
	Lifts:    []string{"npm", "pnpm", "yarn*", "node", "nodejs"},
	Form:     nodeForm,
	Caches:   []string{"npm", "pnpm-store", "yarn"},
	Env:      nodeEnv,
})

// nodeSubs are the subcommands of npm, pnpm and yarn a runs_code tool may
// run: the package's scripts, installing from the lock file, listing.
// exec, x, dlx and create run a package named in their arguments,
// publish, login, config and the like reach outside the workspace.
var nodeSubs = []string{"test", "t", "tst", "run", "run-script", "start", "stop", "restart", "ci", "install", "i", "ls", "list", "rebuild", "pack"}

// nodeTestOptions are the options node --test may be given: its test
// runner's own. Every other option of node loads or runs code named on
// the command line (-e, -r, --import, --loader …) or opens a debugger.
var nodeTestOptions = []string{"--test", "--experimental-test-", "--test-", "--no-warnings", "--enable-source-maps"}

// nodeForm accepts node --test with test-runner options only and path (or
// enum) slots as its files; and npm, pnpm and yarn templates whose
// subcommand is one of nodeSubs and that give no slot to an option naming
// a shell, node options or a configuration file.
func nodeForm(prog string, words []TemplateWord) string {
	if prog == "node" || prog == "nodejs" {
		return nodeTestForm(words)
	}
	return firstOf(
		allowedSub(prog, words, nodeSubs),
		codeOptions(words, "--script-shell", "--node-options", "--userconfig", "--globalconfig", "-c", "--call", "--shell"),
	)
}

// nodeTestForm is nodeForm for node itself.
func nodeTestForm(words []TemplateWord) string {
	if len(words) == 0 || words[0].Text != "--test" {
		return "node may run in a runs_code tool only as its test runner: the template must start node --test"
	}
	for _, w := range words {
		text := w.Text
		if len(w.Slots) == 1 && w.Slots[0].Flag != "" && text == "{"+w.Slots[0].Name+"}" {
			text = w.Slots[0].Flag // a boolean slot: its option or nothing
		}
		if !strings.HasPrefix(text, "-") {
			for _, s := range w.Slots {
				if !s.Path && s.Enum == nil {
					return "slot {" + s.Name + "} is a file node --test runs: make it a path slot (its value then stays inside the workspace) or give it an enum"
				}
			}
			continue
		}
		if !nodeTestOption(text) {
			return "node --test: option " + text + " is not one of its test runner's (" + strings.Join(nodeTestOptions, ", ") +
				"): node's other options run code named on the command line or open a debugger"
		}
	}
	return ""
}

// nodeTestOption reports whether the option word o is one of
// nodeTestOptions (an entry ending in '-' is a prefix).
func nodeTestOption(o string) bool {
	name, _, _ := strings.Cut(o, "=")
	for _, e := range nodeTestOptions {
		if name == e || strings.HasSuffix(e, "-") && strings.HasPrefix(name, e) {
			return true
		}
	}
	return false
}

// nodeEnv keeps the package managers offline (unless the tool names
// hosts) and caching in the workspace's build cache.
func nodeEnv(b Build) []string {
	env := []string{
		"npm_config_cache=" + filepath.Join(b.Cache, "npm"),
		"npm_config_update_notifier=false",
		"npm_config_fund=false",
		"npm_config_audit=false",
		"npm_config_store_dir=" + filepath.Join(b.Cache, "pnpm-store"),
		"YARN_CACHE_FOLDER=" + filepath.Join(b.Cache, "yarn"),
		"NODE_OPTIONS=",
	}
	if !b.Online {
		env = append(env, "npm_config_offline=true", "YARN_ENABLE_OFFLINE_MODE=1")
	}
	return env
}
