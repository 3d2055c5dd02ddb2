// Package tool is the leaf of toolgen: the Tool interface every command tool
// satisfies, the descriptor model (Spec and Arg) shared by code-form,
// declarative and generated tools, the Error type that carries the codes 613
// and 614, and a Registry of tools keyed by name.
//
// Every command tool is a command template plus a variable part. The Spec is
// that template and the typed slots that make up the variable part; there is
// exactly one path from a Spec to a running tool (package base).
package tool
