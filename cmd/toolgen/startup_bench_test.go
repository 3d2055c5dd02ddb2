package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// builtToolgenDir is the directory toolgenBinary built toolgen in, removed
// after the tests (cleanupM).
var builtToolgenDir string

// toolgenBinary builds cmd/toolgen once per test binary, for the start-up
// benchmarks, the end-to-end tests and the scripts under -short
// (scriptToolgenDir).
var toolgenBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "toolgen-bench")
	if err != nil {
		return "", err
	}
	builtToolgenDir = dir
	bin := filepath.Join(dir, "toolgen")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out), err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// helloBinary builds a minimal Go program (it prints one line) once per
// test binary: the start of any Go program, the floor under toolgen's own.
var helloBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "toolgen-bench-hello")
	if err != nil {
		return "", err
	}
	src := "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hi\\n\") }\n"
	for name, data := range map[string]string{"main.go": src, "go.mod": "module hello\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(dir, "hello")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{string(out), err}
	}
	return bin, nil
})

// BenchmarkStartup runs whole processes, each variant once per round in a
// random order, b.N rounds, and reports each variant's median
// (interleaving keeps a shared machine's drift out of the ratios): a bare grep (the baseline), a
// minimal Go program (the start of any Go binary), toolgen version
// (toolgen's start-up alone), and toolgen call of grep_text doing the same
// search, unconfined and with the default confinement, and the latter
// again after 100 ms of idleness (call-idle, untimed pause: an agent calls
// now and then, and an idle machine had let the kernel's cgroup and RCU
// state go cold). It reports call/grep, and floor/grep: (hello + grep)/grep,
// the least any Go program that starts grep and waits for it can take.
//
//	go test -run '^$' -bench Startup -benchtime 100x ./cmd/toolgen
//
// TOOLGEN_BENCH_BEFORE=/path/to/an/older/toolgen adds its call (default
// confinement) as "before", for a before/after in one run.
func BenchmarkStartup(b *testing.B) {
	bin, err := toolgenBinary()
	if err != nil {
		b.Fatal(err)
	}
	hello, err := helloBinary()
	if err != nil {
		b.Fatal(err)
	}
	ws, err := filepath.Abs("../../runtime/builtin")
	if err != nil {
		b.Fatal(err)
	}
	args := `{"pattern":"CommandToolBase","path":"."}`
	type variant struct {
		name  string
		argv  []string
		pause bool
		times []time.Duration
	}
	vs := []*variant{
		{name: "grep", argv: []string{"grep", "-rn", "CommandToolBase", "."}},
		{name: "hello", argv: []string{hello}},
		{name: "version", argv: []string{bin, "version"}},
		{name: "call-off", argv: []string{bin, "call", "--workspace", ws, "--confine", "off", "grep_text", args}},
		{name: "call", argv: []string{bin, "call", "--workspace", ws, "grep_text", args}},
		{name: "call-idle", argv: []string{bin, "call", "--workspace", ws, "grep_text", args}, pause: true},
	}
	if before := os.Getenv("TOOLGEN_BENCH_BEFORE"); before != "" {
		vs = append(vs, &variant{name: "before", argv: []string{before, "call", "--workspace", ws, "grep_text", args}})
	}
	// Each round runs the variants in a new random order (seeded, so runs
	// compare): a fixed order, or a rotation of one, would charge what one
	// process leaves behind (page cache, cgroup and RCU state) to the same
	// next variant every time.
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		for _, i := range rng.Perm(len(vs)) {
			v := vs[i]
			cmd := exec.Command(v.argv[0], v.argv[1:]...)
			cmd.Dir = ws
			if v.pause {
				time.Sleep(100 * time.Millisecond)
			}
			start := time.Now()
			out, err := cmd.Output()
			v.times = append(v.times, time.Since(start))
			if err != nil || len(out) == 0 {
				b.Fatalf("%v: %v (%q)", v.argv, err, out)
			}
		}
	}
	med := map[string]time.Duration{}
	for _, v := range vs {
		med[v.name] = median(v.times)
		b.ReportMetric(float64(med[v.name].Microseconds()), v.name+"-µs")
	}
	grep := float64(med["grep"])
	b.ReportMetric(float64(med["call"])/grep, "call/grep")
	b.ReportMetric(float64(med["call-off"])/grep, "call-off/grep")
	b.ReportMetric(float64(med["call-idle"])/grep, "call-idle/grep")
	b.ReportMetric(float64(med["hello"]+med["grep"])/grep, "floor/grep")
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}
