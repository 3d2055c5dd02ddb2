package kernel

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
)

// ErrNotFound is wrapped by the error of LookPath and Run when the command
// does not exist (Run's Result then has ExitCode 127).
var ErrNotFound = errors.New("command not found")

// ErrNotExecutable is wrapped by the error of LookPath and Run when the
// command exists but cannot be executed: a directory, a file without execute
// permission, or one the system refuses to exec (Run's Result then has
// ExitCode 126).
var ErrNotExecutable = errors.New("not executable")

// errIsDir is checkExecutable's answer for a directory, which LookPath skips.
var errIsDir = fmt.Errorf("%w: is a directory", ErrNotExecutable)

// LookPath resolves a bare command name to an absolute path by searching the
// kernel's scrubbed PATH (see WithPath), never the host's; for a tool that
// runs code (Access.RunsCode), then the directories its toolchain is
// installed in (CodeRunners.InstallDirs). It returns the first entry that
// is a regular file the system runs directly (an execute bit; on Windows,
// name with each .exe and .com extension of %PATHEXT%, in its order: see
// pathrules.go); directories are skipped. The error wraps ErrNotFound when
// nothing matched and ErrNotExecutable when only non-executable files
// matched (or, on Windows, the name asks for a .bat or .cmd file, which
// runs through a shell). A name that is empty or contains a path separator
// is an error: such names are not looked up.
func (k *Kernel) LookPath(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("kernel: empty command name: %w", ErrNotFound)
	}
	if hasSeparator(runtime.GOOS, name) {
		return "", fmt.Errorf("kernel: LookPath %q: name contains a path separator", name)
	}
	names, err := commandNames(runtime.GOOS, name, os.Getenv("PATHEXT"))
	if err != nil {
		return "", fmt.Errorf("kernel: %w", err)
	}
	denied := ""
	// A tool that runs code also finds its toolchain where it is
	// installed outside PATH (/usr/local/go/bin), after PATH.
	for _, dir := range append(slices.Clip(k.dirs), k.installDirs(name)...) {
		for _, n := range names {
			p := filepath.Join(dir, n)
			err := checkExecutable(p)
			if err == nil {
				return p, nil
			}
			if errors.Is(err, ErrNotExecutable) && !errors.Is(err, errIsDir) && denied == "" {
				denied = p
			}
		}
	}
	if denied != "" {
		return "", fmt.Errorf("kernel: %s: %w", denied, ErrNotExecutable)
	}
	return "", fmt.Errorf("kernel: %s: %w (PATH=%s)", name, ErrNotFound, k.path)
}

// resolve turns argv[0] into the absolute path to execute: a bare name via
// LookPath, a relative name holding '/' against the workspace.
func (k *Kernel) resolve(name string) (string, error) {
	if !hasSeparator(runtime.GOOS, name) {
		return k.LookPath(name)
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(k.workspace, p)
	}
	if err := checkExecutable(p); err != nil {
		return "", fmt.Errorf("kernel: %s: %w", p, err)
	}
	return p, nil
}

// checkExecutable reports why p cannot be executed: ErrNotFound when it does
// not exist, ErrNotExecutable when it is not a regular file with an execute bit.
func checkExecutable(p string) error {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return ErrNotFound
	case err != nil:
		return fmt.Errorf("%w: %w", ErrNotExecutable, err)
	case fi.IsDir():
		return errIsDir
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: not a regular file", ErrNotExecutable)
	case !runnableFile(runtime.GOOS, p, uint32(fi.Mode().Perm())):
		if runtime.GOOS == "windows" {
			return fmt.Errorf("%w: only .exe and .com files run without an interpreter", ErrNotExecutable)
		}
		return fmt.Errorf("%w: no execute permission", ErrNotExecutable)
	}
	return nil
}

// exitCodeFor maps a could-not-start error to the shell's convention:
// 127 not found, 126 found but not executable (or otherwise not startable).
func exitCodeFor(err error) int {
	if errors.Is(err, ErrNotFound) {
		return 127
	}
	return 126
}

// classifyStart wraps an exec failure from the system with the sentinel that
// matches it: ENOENT (e.g. a missing script interpreter) is ErrNotFound; a
// refusal to exec (EACCES, ENOEXEC, ...) is ErrNotExecutable.
func classifyStart(err error) error {
	switch {
	case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ENOTDIR):
		// The file was there a moment ago: what is missing is usually the
		// interpreter named by its #! line (or an ELF file's loader).
		return fmt.Errorf("%w (missing #! interpreter?): %w", ErrNotFound, err)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM),
		errors.Is(err, syscall.ENOEXEC), errors.Is(err, syscall.EISDIR),
		errors.Is(err, syscall.ETXTBSY):
		return fmt.Errorf("%w: %w", ErrNotExecutable, err)
	}
	return err
}
