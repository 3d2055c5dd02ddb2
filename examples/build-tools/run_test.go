package buildtools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nanogpt/toolgen/internal/guarantee"
	"github.com/nanogpt/toolgen/runtime/kernel"
)

// The generated tools run the real toolchains on real workspaces, each a
// test that passes and a test that fails: the call must run the
// repository's code (its tests, what it compiles) and report both.

// workspace writes files (name → content) into a fresh directory and
// returns a kernel on it with a build cache root of the test's own.
func workspace(t *testing.T, files map[string]string) *kernel.Kernel {
	t.Helper()
	ws := t.TempDir()
	for name, content := range files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	k, err := kernel.New(ws, kernel.WithTimeout(10*time.Minute), kernel.WithBuildCache(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// need skips the test, naming the program, when it is not installed.
func need(t *testing.T, prog string) {
	t.Helper()
	guarantee.Program(t, prog)
}

// wantRun checks that a call ran (no error, no confinement warning) with
// exit status code and output holding every one of want.
func wantRun(t *testing.T, res kernel.Result, err error, code int, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("call: %v\n%s", err, res.Output)
	}
	if res.ExitCode != code {
		t.Errorf("exit %d, want %d; output:\n%s", res.ExitCode, code, res.Output)
	}
	if strings.Contains(res.Notice, "not confined") {
		t.Errorf("the call ran unconfined: %s", res.Notice)
	}
	for _, w := range want {
		if !strings.Contains(res.Output, w) {
			t.Errorf("output lacks %q:\n%s", w, res.Output)
		}
	}
}

func str(s string) *string { return &s }

func TestGoTest(t *testing.T) {
	need(t, "go")
	if testing.Short() {
		t.Skip("a go test in a fresh build cache compiles the standard library's test dependencies (minutes on a 2-core machine): run without -short")
	}
	k := workspace(t, map[string]string{
		"go.mod":          "module example.com/calc\n\ngo 1.22\n",
		"calc.go":         "package calc\n\nfunc Add(a, b int) int { return a + b }\n",
		"calc_test.go":    "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"1+2\")\n\t}\n}\n\nfunc TestBroken(t *testing.T) { t.Fatal(\"broken on purpose\") }\n",
		"cmd/x/main.go":   "package main\n\nfunc main() {}\n",
		"unformatted.txt": "",
	})
	tl, err := NewGoTest(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), GoTestArgs{Run: str("TestAdd"), Pkg: str("./...")})
	wantRun(t, res, err, 0, "ok  \texample.com/calc")
	res, err = tl.Run(context.Background(), GoTestArgs{Run: str("TestBroken"), Pkg: str(".")})
	wantRun(t, res, err, 1, "broken on purpose", "FAIL")
	vet, err := NewGoVet(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err = vet.Run(context.Background(), GoVetArgs{})
	wantRun(t, res, err, 0)
}

func TestNodeTest(t *testing.T) {
	need(t, "node")
	k := workspace(t, map[string]string{
		"test/add.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\n" +
			"test('adds', () => assert.strictEqual(1 + 2, 3));\ntest('breaks', () => assert.strictEqual(1, 2));\n",
	})
	tl, err := NewNodeTest(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), NodeTestArgs{Name: str("adds"), Path: str("test/add.test.js")})
	wantRun(t, res, err, 0, "pass 1")
	res, err = tl.Run(context.Background(), NodeTestArgs{Name: str("breaks"), Path: str("test/add.test.js")})
	wantRun(t, res, err, 1, "fail 1")
}

func TestNpmTest(t *testing.T) {
	need(t, "npm")
	k := workspace(t, map[string]string{
		"package.json": `{"name": "calc", "version": "1.0.0", "scripts": {"test": "node --test"}}` + "\n",
		"test/add.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\n" +
			"test('adds', () => assert.strictEqual(1 + 2, 3));\n",
	})
	tl, err := NewNpmTest(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), NpmTestArgs{})
	wantRun(t, res, err, 0, "pass 1")
}

func TestPythonUnittest(t *testing.T) {
	need(t, "python3")
	k := workspace(t, map[string]string{
		"calc.py":        "def add(a, b):\n    return a + b\n",
		"test_calc.py":   "import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n",
		"test_broken.py": "import unittest\n\nclass T(unittest.TestCase):\n    def test_broken(self):\n        self.fail('broken on purpose')\n",
	})
	tl, err := NewPythonUnittest(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), PythonUnittestArgs{})
	wantRun(t, res, err, 1, "broken on purpose", "Ran 2 tests")
	res, err = tl.Run(context.Background(), PythonUnittestArgs{Pattern: str("test_calc.py")})
	wantRun(t, res, err, 0, "Ran 1 test", "OK")
	if _, err := os.Stat(filepath.Join(k.Workspace(), "__pycache__")); err == nil {
		t.Error("python wrote __pycache__ into the workspace")
	}
}

func TestPytest(t *testing.T) {
	need(t, "python3")
	if exec.Command("python3", "-c", "import pytest").Run() != nil {
		t.Skip("pytest is not installed here (python3 -c 'import pytest' fails): the pytest tool is not tested")
	}
	k := workspace(t, map[string]string{"test_calc.py": "def test_add():\n    assert 1 + 2 == 3\n"})
	tl, err := NewPytest(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), PytestArgs{Select: str("add")})
	wantRun(t, res, err, 0, "1 passed")
}

func TestMakeWithCC(t *testing.T) {
	need(t, "make")
	need(t, "cc")
	k := workspace(t, map[string]string{
		"Makefile": "build: calc\ncalc: calc.c\n\tcc -O1 -o calc calc.c\ntest: calc\n\t./calc 1 2\nclean:\n\trm -f calc\n",
		"calc.c":   "#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { printf(\"sum %d\\n\", atoi(v[1]) + atoi(v[2])); return 0; }\n",
	})
	tl, err := NewMakeTarget(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), MakeTargetArgs{Target: str("test")})
	wantRun(t, res, err, 0, "cc -O1 -o calc calc.c", "sum 3")
	res, err = tl.Run(context.Background(), MakeTargetArgs{Target: str("clean")})
	wantRun(t, res, err, 0)
	if _, err := os.Stat(filepath.Join(k.Workspace(), "calc")); err == nil {
		t.Error("make clean left the program it built")
	}
}

func TestCargoTest(t *testing.T) {
	k := workspace(t, map[string]string{
		"Cargo.toml": "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n",
	})
	tl, err := NewCargoTest(k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tl.Kernel().LookPath("cargo"); err != nil {
		t.Skip("cargo is not installed for this user (on PATH or in ~/.cargo/bin): the rust toolchain is not tested")
	}
	res, err := tl.Run(context.Background(), CargoTestArgs{Filter: str("adds")})
	wantRun(t, res, err, 0, "test tests::adds ... ok")
}

// TestCacheIsWarm: a second call of a tool finds its build cache: make
// rebuilds nothing.
func TestCacheIsWarm(t *testing.T) {
	need(t, "make")
	k := workspace(t, map[string]string{"Makefile": "test:\n\t@echo tmp=$$TMPDIR\n"})
	tl, err := NewMakeTarget(k)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tl.Run(context.Background(), MakeTargetArgs{})
	wantRun(t, res, err, 0, "tmp="+filepath.Join(k.BuildCache(), "tmp", "call-"))
	scratch := strings.TrimSpace(strings.TrimPrefix(res.Output, "tmp="))
	if _, err := os.Stat(scratch); err == nil {
		t.Errorf("the call's scratch directory %s outlived it", scratch)
	}
}
