// Package tools is the example agent's command tools: *.tool.json
// descriptors in this directory, compiled into tools_gen.go by
//
//	go generate ./...
//
// which runs the line below in this directory. In an agent repository of
// your own, the line is the same (with github.com/nanogpt/toolgen in your
// go.mod), or, with the tool directive of go.mod (go get -tool
// github.com/nanogpt/toolgen/cmd/toolgen), "//go:generate go tool toolgen
// generate".
//
// CI keeps the generated file honest with
//
//	go run github.com/nanogpt/toolgen/cmd/toolgen generate --tools examples/agent/tools -check
package tools

//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate
