package programs

import "path/filepath"

// Rust: cargo build, test, check, clippy, run and the like. cargo is
// usually rustup's proxy in ~/.cargo/bin (the same file as rustup): the
// proxy reads the toolchains under RUSTUP_HOME (read only) and runs the
// toolchain's cargo, rustc and clippy-driver. CARGO_HOME (the registry
// cache) and the target directory are the workspace's own; offline unless
// the tool names hosts.
var _ = registerToolchain(&Toolchain{
	Name:     "rust",
	Programs: []string{"cargo"},
	Lifts:    []string{"cargo", "rustup"},
	Form:     rustForm,
	Install:  rustInstall,
	Reads:    rustReads,
	Caches:   []string{"cargo-home", "cargo-target"},
	Env:      rustEnv,
})

// rustSubs are the cargo subcommands a runs_code tool may run: install,
// publish, login, owner, yank and the like reach outside the workspace,
// and an unknown subcommand runs cargo-NAME from PATH.
var rustSubs = []string{"build", "b", "test", "t", "check", "c", "clippy", "run", "r", "bench", "doc", "d", "fmt", "tree", "metadata", "fetch", "clean"}

// rustForm accepts a cargo template whose subcommand is one of rustSubs,
// whose --config (which can name a runner, a linker or a rustc wrapper)
// takes no slot and whose manifest option takes a path slot.
func rustForm(_ string, words []TemplateWord) string {
	return firstOf(
		allowedSub("cargo", words, rustSubs),
		codeOptions(words, "--config", "-Z"),
		pathOptions(words, "--manifest-path", "-C", "--target-dir"),
	)
}

// rustInstall is rustup's bin directory: $CARGO_HOME/bin, else
// ~/.cargo/bin.
func rustInstall(env func(string) string) []string {
	if c := env("CARGO_HOME"); filepath.IsAbs(c) {
		return []string{filepath.Join(c, "bin")}
	}
	if h := env("HOME"); filepath.IsAbs(h) {
		return []string{filepath.Join(h, ".cargo", "bin")}
	}
	return nil
}

// rustupHome is the user's RUSTUP_HOME, else ~/.rustup.
func rustupHome(env func(string) string) string {
	if r := env("RUSTUP_HOME"); filepath.IsAbs(r) {
		return filepath.Clean(r)
	}
	if h := env("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".rustup")
	}
	return ""
}

// rustReads is the directory of the cargo binary (rustup's proxies) and
// the toolchains, read only.
func rustReads(path string, env func(string) string) []string {
	dirs := []string{filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	if r := rustupHome(env); r != "" {
		dirs = append(dirs, r)
	}
	return dirs
}

// rustEnv gives cargo the workspace's own home and target directory and
// the user's toolchains, offline unless the tool names hosts.
func rustEnv(b Build) []string {
	env := []string{
		"CARGO_HOME=" + filepath.Join(b.Cache, "cargo-home"),
		"CARGO_TARGET_DIR=" + filepath.Join(b.Cache, "cargo-target"),
		"RUSTUP_AUTO_INSTALL=0",
		"RUSTC_WRAPPER=",
		"RUSTC_WORKSPACE_WRAPPER=",
	}
	if r := rustupHome(b.Env); r != "" {
		env = append(env, "RUSTUP_HOME="+r)
	}
	if !b.Online {
		env = append(env, "CARGO_NET_OFFLINE=true")
	}
	return env
}
