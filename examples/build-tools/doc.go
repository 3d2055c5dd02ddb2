// Package buildtools is a catalogue of build and test tools: descriptors
// that declare "runs_code": true, one or more per toolchain toolgen has a
// profile for (Go, Node, Python, Rust, make/cmake/ctest with a C
// compiler), compiled into tools_gen.go by
//
//	go generate ./...
//
// Copy the ones an agent needs into its tools directory. A call of such a
// tool runs the repository's own code (its tests, its build files, what
// it compiles), confined: it reads only the workspace, the system, the
// toolchain and its caches, writes only the workspace (with "writes"),
// its build cache and a scratch directory, reaches no network unless the
// tool names hosts, and nothing it starts outlives it. See
// docs/descriptors.md, "Build and test tools".
//
// CI keeps the generated file honest with
//
//	go run github.com/nanogpt/toolgen/cmd/toolgen generate --tools examples/build-tools -check
package buildtools

//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate
