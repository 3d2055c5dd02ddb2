package tool

import (
	"context"
	"encoding/json"
)

// Tool is one tool an agent can call.
//
// Call takes the model's JSON arguments and returns the text the model sees.
// A nil error means the command ran (whatever its exit status; the text says
// it). A non-nil error means the call failed and err.Error() is what the model
// sees instead: a *Error with CodeValue (614) when an argument was rejected,
// or another error when the command could not be started or was cancelled.
// Call never panics on any input and is safe for concurrent use.
type Tool interface {
	// Name is the tool's unique name.
	Name() string
	// Description tells the model what the tool does.
	Description() string
	// InputSchema is the JSON Schema (an object schema) of the arguments.
	InputSchema() json.RawMessage
	// Call runs the tool with the model's JSON arguments.
	Call(ctx context.Context, args json.RawMessage) (string, error)
}

// SpecTool is a Tool built from a Spec: every code-form, declarative and
// generated command tool.
type SpecTool interface {
	Tool
	// Spec returns a copy of the tool's descriptor.
	Spec() Spec
	// Argv validates args exactly as Call does and returns the argv that Call
	// would run, without running anything.
	Argv(args json.RawMessage) ([]string, error)
}

// Form says which of the lineage's forms a tool takes.
type Form string

// The forms of the command tool lineage.
const (
	FormBuiltin    Form = "builtin"
	FormGenerated  Form = "generated"
	FormDescriptor Form = "descriptor"
	FormExec       Form = "exec"
)
