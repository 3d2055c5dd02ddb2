// Package testtools holds the descriptors the adapter's tests run as
// activities, and the code toolgen generate --temporal compiles them into
// (tools_gen.go, tools_temporal_gen.go): the workflow stubs the tests call
// against a real Temporal server. TestGeneratedFresh keeps them up to date.
package testtools

//go:generate go run github.com/nanogpt/toolgen/cmd/toolgen generate --temporal
