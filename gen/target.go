package gen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
)

// Target is the Go package a generated file goes into, as go/packages sees
// the directory.
type Target struct {
	// Dir is the package directory, absolute.
	Dir string
	// Name is the package name: the one the directory's other Go files
	// declare, else the one a previous generated file declared, else
	// PackageName of the last element of Path, a major-version suffix /vN
	// skipped (New is then true).
	Name string
	// Path is the package's import path.
	Path string
	// ModuleDir is the root directory of the module holding Dir.
	ModuleDir string
	// New reports that the directory held no Go package: Name was derived
	// from its base name.
	New bool
	// Reserved maps the top-level identifiers declared by the package's other
	// files (its in-package tests included) to the file declaring them, for
	// Config.Reserved.
	Reserved map[string]string
}

// Source returns dir relative to the module root, in slash form, for
// Config.Source ("." for the root itself).
func (t *Target) Source(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.ToSlash(dir)
	}
	rel, err := filepath.Rel(t.ModuleDir, abs)
	if err != nil {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(rel)
}

// Resolve loads the package in dir with go/packages (names and files only:
// nothing is type-checked and no dependency is loaded) and returns where
// generated code goes. outputs are the base names of toolgen's own files in
// dir (tools_gen.go, tools_gen_test.go): they are left out when the package's
// name and identifiers are gathered, since they are about to be replaced.
//
// pkg, when not empty, is the package name asked for (-pkg); it must agree
// with the directory's other Go files. A directory outside any module is an
// error: generated code imports toolgen, so it needs a go.mod.
func Resolve(dir, pkg string, outputs ...string) (*Target, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, fmt.Errorf("gen: %s is not a directory", dir)
	}
	modDir, modPath, err := findModule(abs)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedModule, Dir: abs}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("gen: loading the package in %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("gen: %s holds %d packages, want one", dir, len(pkgs))
	}
	p := pkgs[0]
	if p.Module != nil && p.Module.Dir != "" {
		modDir = p.Module.Dir
	}
	if p.PkgPath == "" || p.PkgPath == "." || p.PkgPath == "command-line-arguments" {
		// No Go files yet: go list knows no import path, the module does.
		rel, err := filepath.Rel(modDir, abs)
		if err != nil {
			return nil, err
		}
		p.PkgPath = path.Join(modPath, filepath.ToSlash(rel))
	}
	t := &Target{Dir: abs, Path: p.PkgPath, ModuleDir: modDir, Reserved: map[string]string{}}
	skip := append(slices.Clone(outputs), baseNames(p.IgnoredFiles)...)
	own, err := t.scan(skip)
	if err != nil {
		return nil, err
	}
	switch {
	case pkg != "":
		if own != "" && own != pkg {
			return nil, fmt.Errorf("gen: -pkg %s, but the Go files in %s are package %s; generated code in another package would not compile", pkg, dir, own)
		}
		t.Name = pkg
	case own != "":
		t.Name = own
	case p.Name != "":
		t.Name = p.Name // only toolgen's own earlier output is there
	default:
		t.Name, t.New = PackageName(lastElem(t.Path)), true
	}
	return t, nil
}

// scan parses the package's Go files but those named in skip (package
// clause and top-level declarations only) and returns their package name.
// In-package test files count, since they may declare a clashing test
// function; files of the external test package (name_test) do not.
func (t *Target) scan(skip []string) (string, error) {
	entries, err := os.ReadDir(t.Dir)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	var name, nameFile string
	for _, e := range entries {
		base := e.Name()
		if e.IsDir() || !strings.HasSuffix(base, ".go") || slices.Contains(skip, base) || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(t.Dir, base), nil, parser.SkipObjectResolution)
		if err != nil {
			return "", fmt.Errorf("gen: %w", err)
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		if name != "" && f.Name.Name != name {
			return "", fmt.Errorf("gen: %s: package %s, but %s is package %s", base, f.Name.Name, nameFile, name)
		}
		name, nameFile = f.Name.Name, base
		for _, id := range topLevel(f) {
			if _, ok := t.Reserved[id]; !ok && id != "_" {
				t.Reserved[id] = base
			}
		}
	}
	return name, nil
}

// topLevel returns the names f declares at package level (methods and init
// functions excluded).
func topLevel(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

// lastElem returns the last element of an import path, skipping a
// major-version suffix (example.com/agent/v2 → agent).
func lastElem(importPath string) string {
	elems := strings.Split(importPath, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}

// baseNames returns the base names of paths.
func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// findModule returns the root directory and the path of the module holding
// dir: the nearest go.mod at or above it.
func findModule(dir string) (root, modPath string, err error) {
	for d := dir; ; {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		switch {
		case err == nil:
			if modPath = modfile.ModulePath(data); modPath == "" {
				return "", "", fmt.Errorf("gen: %s has no module line", filepath.Join(d, "go.mod"))
			}
			return d, modPath, nil
		case !errors.Is(err, fs.ErrNotExist):
			return "", "", err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("gen: %s is not inside a Go module (no go.mod at or above it): generated code imports github.com/nanogpt/toolgen, so the directory needs a module (go mod init)", dir)
		}
		d = parent
	}
}
