package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// mkTree makes files (content "x") and directories (names ending in "/")
// under root.
func mkTree(t *testing.T, root string, entries ...string) {
	t.Helper()
	for _, e := range entries {
		p := filepath.Join(root, e)
		if e[len(e)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rels(t *testing.T, ws string, paths []string) []string {
	t.Helper()
	var out []string
	for _, p := range paths {
		r, err := filepath.Rel(ws, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

func TestProtection(t *testing.T) {
	for _, c := range []struct {
		name                     string
		tree                     []string
		gitFile                  string // content of a .git file, "" for none
		readOnly, pinned, absent []string
	}{
		{
			name:     "a repository with editor configuration",
			tree:     []string{".git/HEAD", ".git/config", ".git/hooks/", ".git/info/", ".git/objects/", ".vscode/tasks.json", ".envrc"},
			readOnly: []string{".envrc", ".git/config", ".git/hooks", ".git/info", ".vscode"},
			pinned:   []string{".git"},
			absent:   []string{".claude", ".codex", ".cursor", ".gemini", ".idea", ".mcp.json"},
		},
		{
			name:     "git's parts missing, submodules nested",
			tree:     []string{".git/HEAD", ".git/modules/a/HEAD", ".git/modules/a/hooks/", ".git/modules/a/modules/b/HEAD", ".git/modules/lib/c/HEAD", ".git/modules/lib/c/config"},
			readOnly: []string{".git/modules/a/hooks", ".git/modules/lib/c/config"},
			pinned:   []string{".git", ".git/modules/a", ".git/modules/a/modules/b", ".git/modules/lib/c"},
			absent: []string{".claude", ".codex", ".cursor", ".envrc", ".gemini", ".git/config", ".git/hooks", ".git/info", ".idea", ".mcp.json", ".vscode",
				".git/modules/a/config", ".git/modules/a/info", ".git/modules/a/modules/b/config", ".git/modules/a/modules/b/hooks",
				".git/modules/a/modules/b/info", ".git/modules/lib/c/hooks", ".git/modules/lib/c/info"},
		},
		{
			name:     "no repository: .git itself is protected",
			tree:     []string{"main.go"},
			absent:   []string{".claude", ".codex", ".cursor", ".envrc", ".gemini", ".git", ".idea", ".mcp.json", ".vscode"},
			readOnly: nil,
		},
		{
			name:     "a .git file pointing inside, with a common directory",
			tree:     []string{"wt/HEAD", "wt/config.worktree", "wt/commondir", "main/HEAD", "main/hooks/", "main/config"},
			gitFile:  "gitdir: wt\n",
			readOnly: []string{".git", "main/config", "main/hooks", "wt/config.worktree"},
			pinned:   []string{"main", "wt"},
			absent: []string{".claude", ".codex", ".cursor", ".envrc", ".gemini", ".idea", ".mcp.json", ".vscode",
				"main/info", "wt/config", "wt/hooks", "wt/info"},
		},
		{
			name:     "a .git file pointing nowhere",
			gitFile:  "gitdir: /nonexistent/x\n",
			readOnly: []string{".git"},
			absent:   []string{".claude", ".codex", ".cursor", ".envrc", ".gemini", ".idea", ".mcp.json", ".vscode"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			mkTree(t, ws, c.tree...)
			if c.gitFile != "" {
				if err := os.WriteFile(filepath.Join(ws, ".git"), []byte(c.gitFile), 0o644); err != nil {
					t.Fatal(err)
				}
				if slices.Contains(c.tree, "wt/commondir") {
					if err := os.WriteFile(filepath.Join(ws, "wt/commondir"), []byte("../main\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			pr := Policy{Workspace: ws}.Protection()
			for _, check := range []struct {
				what      string
				got, want []string
			}{{"read-only", pr.ReadOnly, c.readOnly}, {"pinned", pr.Pinned, c.pinned}, {"absent", pr.Absent, c.absent}} {
				want := slices.Clone(check.want)
				slices.Sort(want)
				if got := rels(t, ws, check.got); !slices.Equal(got, want) {
					t.Errorf("%s: got %q, want %q", check.what, got, want)
				}
			}
		})
	}
}

// TestProtectionLinks: a protected name that is a symbolic link is
// watched, not mounted; what it names inside the workspace is read-only,
// or absent while it names nothing.
func TestProtectionLinks(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkTree(t, ws, "vsc/tasks.json")
	for link, target := range map[string]string{".vscode": "vsc", ".envrc": "env-later"} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	pr := Policy{Workspace: ws}.Protection()
	if got := rels(t, ws, pr.Links); !slices.Equal(got, []string{".envrc", ".vscode"}) {
		t.Errorf("links: %q", got)
	}
	if got := rels(t, ws, pr.ReadOnly); !slices.Equal(got, []string{"vsc"}) {
		t.Errorf("read-only: %q", got)
	}
	if got := rels(t, ws, pr.Absent); !slices.Contains(got, "env-later") || slices.Contains(got, ".envrc") {
		t.Errorf("absent: %q", got)
	}
}

// TestProtectionExtra: WithProtected's paths inside the workspace are
// mounted, those outside are listed as out of reach; a missing one is
// neither.
func TestProtectionExtra(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws")
	mkTree(t, root, "ws/tools/", "config/toolgen/trust.json")
	pr := Policy{Workspace: ws, Protect: []string{ws + "/tools", root + "/config/toolgen/trust.json", root + "/missing"}}.Protection()
	if !slices.Contains(pr.ReadOnly, ws+"/tools") {
		t.Errorf("the tools directory inside the workspace is not read-only: %+v", pr)
	}
	if !slices.Equal(pr.Outside, []string{root + "/config/toolgen/trust.json"}) {
		t.Errorf("outside: got %q", pr.Outside)
	}
}

// TestProtectionKey: the key changes when a protected path is made,
// removed or replaced.
func TestProtectionKey(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mkTree(t, ws, ".vscode/")
	key := func() string { return Policy{Workspace: ws}.Protection().Key() }
	k0 := key()
	mkTree(t, ws, ".envrc")
	k1 := key()
	if err := os.Remove(filepath.Join(ws, ".vscode")); err != nil {
		t.Fatal(err)
	}
	mkTree(t, ws, ".vscode/")
	k2 := key()
	if k0 == k1 || k1 == k2 {
		t.Errorf("key unchanged: made %v, replaced %v", k0 != k1, k1 != k2)
	}
}

// FuzzPointedGitDir: any .git file content is read without panic, and what
// it yields is an existing directory or nothing.
func FuzzPointedGitDir(f *testing.F) {
	for _, s := range []string{"gitdir: sub\n", "gitdir: /etc\n", "gitdir:", "gitdir: ../../..\n", "\x00", "gitdir: " + string(make([]byte, 5000))} {
		f.Add(s)
	}
	base := f.TempDir()
	if err := os.Mkdir(filepath.Join(base, "sub"), 0o755); err != nil {
		f.Fatal(err)
	}
	file := filepath.Join(base, "dotgit")
	f.Fuzz(func(t *testing.T, content string) {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		g := pointedGitDir(file, base)
		if g == "" {
			return
		}
		if fi, err := os.Stat(g); err != nil || !fi.IsDir() {
			t.Fatalf("%q yields %q, not a directory", content, g)
		}
	})
}
