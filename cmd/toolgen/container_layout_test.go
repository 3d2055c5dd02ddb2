//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/nanogpt/toolgen/internal/guarantee"
)

// image is what the Dockerfile says about the tools directory: the build
// argument naming its source, where it is copied, the RUN line that sets
// its owner and modes, the user the server runs as, and the ENTRYPOINT.
type image struct {
	toolsArg   string // ARG TOOLS=…: a directory of the build context
	toolsDir   string // the COPY destination
	fixModes   string // the RUN line's command
	uid, gid   uint32 // USER
	entrypoint []string
}

// readDockerfile parses the lines of ../../Dockerfile the layout depends
// on, failing the test when one is missing (then this test no longer
// reproduces the image).
func readDockerfile(t *testing.T) image {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	find := func(re string) []string {
		m := regexp.MustCompile(`(?m)` + re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("Dockerfile: no line matching %s", re)
		}
		return m
	}
	var img image
	img.toolsArg = find(`^ARG TOOLS=(\S+)$`)[1]
	img.toolsDir = find(`^COPY \$\{TOOLS\}/\*\.tool\.json (/\S+)/$`)[1]
	img.fixModes = find(`^RUN (.*chmod.*` + regexp.QuoteMeta(img.toolsDir) + `.*)$`)[1]
	user := find(`^USER (\d+):(\d+)$`)
	uid, _ := strconv.Atoi(user[1])
	gid, _ := strconv.Atoi(user[2])
	img.uid, img.gid = uint32(uid), uint32(gid)
	if err := json.Unmarshal([]byte(find(`^ENTRYPOINT (\[.*\])$`)[1]), &img.entrypoint); err != nil {
		t.Fatalf("Dockerfile: ENTRYPOINT: %v", err)
	}
	return img
}

// flagValue returns the value of --name in args, or "".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == "--"+name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// TestContainerLayout reproduces the Dockerfile's layout on this file
// system (no Docker daemon here: the image itself is not built) and runs
// the server's tool flags from its ENTRYPOINT as its USER: the descriptors
// of ARG TOOLS copied as a checkout under umask 002 leaves them
// (group-writable, owned by root, as COPY makes them), the RUN line that
// fixes their modes, then list and a git tool as that user, whose workspace
// is a root-owned repository (another user's volume). Without the RUN line
// the directory is refused. As root, git also works in a workspace given to
// another uid. It needs root to make files of root and of another user.
func TestContainerLayout(t *testing.T) {
	guarantee.AsRoot(t, "reproducing an image's root-owned tools directory and running as its user need root; "+
		"the loader's rule is runtime/loader's TestTrustRootOwnedDir, which runs as every user")
	img := readDockerfile(t)
	if got := flagValue(img.entrypoint, "tools"); got != img.toolsDir {
		t.Fatalf("ENTRYPOINT %q serves --tools %q, not the directory the image copies, %s", img.entrypoint, got, img.toolsDir)
	}
	root, err := os.MkdirTemp("", "toolgen-image-*") // t.TempDir's parent is 0700: other users cannot pass
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	must(t, os.Chmod(root, 0o755))
	tools := copyContext(t, root, img)
	ws := gitWorkspace(t, filepath.Join(root, "workspace"))
	bin := userBinary(t, root)
	names := descriptorNames(t, tools)
	as := func(args ...string) (string, string, int) {
		return runAs(t, bin, root, img.uid, img.gid, args...)
	}

	// As COPY leaves the files (group-writable): refused.
	_, stderr, code := as("list", "--tools", tools, "--workspace", ws)
	if code != exitSpec || !strings.Contains(stderr, "writable by group or others") {
		t.Errorf("before the RUN line: exit %d, stderr %s; want 3, writable by group or others", code, stderr)
	}

	cmd := exec.Command("sh", "-c", strings.ReplaceAll(img.fixModes, img.toolsDir, tools))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("RUN %s: %v\n%s", img.fixModes, err, out)
	}
	stdout, stderr, code := as("list", "--tools", tools, "--workspace", ws)
	if code != exitOK || stderr != "" {
		t.Fatalf("list as uid %d: exit %d\n%s%s", img.uid, code, stdout, stderr)
	}
	for _, name := range names {
		if !regexp.MustCompile(`(?m)^` + name + ` +descriptor `).MatchString(stdout) {
			t.Errorf("list as uid %d does not serve %s:\n%s", img.uid, name, stdout)
		}
	}
	stdout, stderr, code = as("call", "--tools", tools, "--workspace", ws, "git_log", "{}")
	if code != exitOK || !strings.HasPrefix(stdout, "exit: 0\n") || !strings.Contains(stdout, "\tfirst commit") {
		t.Errorf("git_log as uid %d in a root-owned workspace: exit %d\n%s%s", img.uid, code, stdout, stderr)
	}

	// As root, in a workspace another uid owns (a mounted volume).
	must(t, filepath.Walk(ws, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 4242, 4242)
	}))
	var out, errOut bytes.Buffer
	code = run([]string{"call", "--tools", tools, "--workspace", ws, "git_log", "{}"}, &out, &errOut)
	if code != exitOK || !strings.Contains(out.String(), "\tfirst commit") {
		t.Errorf("git_log as root in a workspace of uid 4242: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

// copyContext copies the descriptors of the build context's TOOLS
// directory to the image's tools directory under root, as COPY does from a
// checkout made under umask 002: owned by root, directory 0775, files 0664.
func copyContext(t *testing.T, root string, img image) string {
	t.Helper()
	dst := filepath.Join(root, img.toolsDir)
	must(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	must(t, os.Mkdir(dst, 0o775))
	must(t, os.Chmod(dst, 0o775))
	files, err := filepath.Glob(filepath.Join("../..", img.toolsArg, "*.tool.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no descriptors in the build context's %s: %v", img.toolsArg, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(t, err)
		p := filepath.Join(dst, filepath.Base(f))
		must(t, os.WriteFile(p, data, 0o664))
		must(t, os.Chmod(p, 0o664))
	}
	return dst
}

// descriptorNames returns the tool names of the descriptors in dir.
func descriptorNames(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tool.json"))
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(t, err)
		var d struct{ Name string }
		must(t, json.Unmarshal(data, &d))
		names = append(names, d.Name)
	}
	return names
}

// gitWorkspace makes dir a git repository (owned by root, readable by
// everyone) with one commit, "first commit".
func gitWorkspace(t *testing.T, dir string) string {
	t.Helper()
	must(t, os.Mkdir(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\n"), 0o644))
	for _, args := range [][]string{{"init", "-q"}, {"add", "notes.txt"},
		{"-c", "user.name=a", "-c", "user.email=a@example.com", "commit", "-q", "-m", "first commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// userBinary copies this test binary to root/bin/toolgen, where any user
// can run it: run as toolgen, it is the CLI (TestMain).
func userBinary(t *testing.T, root string) string {
	t.Helper()
	self, err := os.Executable()
	must(t, err)
	data, err := os.ReadFile(self)
	must(t, err)
	must(t, os.Mkdir(filepath.Join(root, "bin"), 0o755))
	bin := filepath.Join(root, "bin", "toolgen")
	must(t, os.WriteFile(bin, data, 0o755))
	return bin
}

// runAs runs the CLI at bin with args as uid:gid, with a home and a
// temporary directory of that user's under root, and returns its stdout,
// stderr and exit code.
func runAs(t *testing.T, bin, root string, uid, gid uint32, args ...string) (string, string, int) {
	t.Helper()
	home := filepath.Join(root, "home-"+strconv.Itoa(int(uid)))
	if err := os.Mkdir(home, 0o700); err == nil {
		must(t, os.Chown(home, int(uid), int(gid)))
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = home
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return stdout.String(), stderr.String(), code
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
