package base_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// TestPublicAPINamesNoInternalType: every exported name of every package a
// module outside this repository may import (all but internal/ and the
// commands) names only types that module can name too, in its signature,
// its exported fields and the exported methods of its types. A type of an
// internal package in an exported signature cannot be written by a user:
// an option that takes one cannot be called with anything but nil.
func TestPublicAPINamesNoInternalType(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: type-checks the module; runs in make test-all")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedDeps | packages.NeedImports, Dir: "../.."}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	checked := 0
	for _, p := range pkgs {
		if isInternal(p.PkgPath) || p.Name == "main" || strings.HasSuffix(p.PkgPath, "_test") || p.Types == nil {
			continue
		}
		require.Empty(t, p.Errors, "%s", p.PkgPath)
		checked++
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			w := apiWalker{t: t, where: p.PkgPath + "." + name, seen: map[types.Type]bool{}}
			if tn, ok := obj.(*types.TypeName); ok {
				w.typeDecl(tn)
				continue
			}
			w.walk(obj.Type())
		}
	}
	require.Greater(t, checked, 5, "no public package was checked")
}

func isInternal(path string) bool {
	return strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}

type apiWalker struct {
	t     *testing.T
	where string
	seen  map[types.Type]bool
}

// typeDecl checks an exported type's declaration: the exported fields of a
// struct, the methods of an interface, and its exported methods. The
// underlying type of a defined type is the package's own business.
func (w apiWalker) typeDecl(tn *types.TypeName) {
	if tn.IsAlias() {
		w.walk(tn.Type())
		return
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return
	}
	switch u := named.Underlying().(type) {
	case *types.Struct:
		for f := range u.Fields() {
			if f.Exported() {
				w.walk(f.Type())
			}
		}
	case *types.Interface, *types.Signature:
		w.walk(u)
	}
	for m := range named.Methods() {
		if m.Exported() {
			w.walk(m.Type())
		}
	}
}

// walk reports a named type of an internal package anywhere in typ.
func (w apiWalker) walk(typ types.Type) {
	if typ == nil || w.seen[typ] {
		return
	}
	w.seen[typ] = true
	switch x := typ.(type) {
	case *types.Named:
		if pkg := x.Obj().Pkg(); pkg != nil && isInternal(pkg.Path()) {
			w.t.Errorf("%s names %s, a type of an internal package that no other module can name", w.where, x)
		}
		if args := x.TypeArgs(); args != nil {
			for a := range args.Types() {
				w.walk(a)
			}
		}
	case *types.Alias:
		w.walk(types.Unalias(x))
	case *types.Pointer:
		w.walk(x.Elem())
	case *types.Slice:
		w.walk(x.Elem())
	case *types.Array:
		w.walk(x.Elem())
	case *types.Map:
		w.walk(x.Key())
		w.walk(x.Elem())
	case *types.Chan:
		w.walk(x.Elem())
	case *types.Signature:
		for v := range x.Params().Variables() {
			w.walk(v.Type())
		}
		for v := range x.Results().Variables() {
			w.walk(v.Type())
		}
	case *types.Interface:
		for m := range x.Methods() {
			if m.Exported() {
				w.walk(m.Type())
			}
		}
	case *types.Struct:
		for f := range x.Fields() {
			if f.Exported() {
				w.walk(f.Type())
			}
		}
	}
}
