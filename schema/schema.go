// Package schema holds the JSON Schemas toolgen hands out: tool.schema.json,
// the JSON Schema (draft 2020-12) of *.tool.json descriptor files (Descriptor;
// toolgen init writes it, toolgen schema --descriptor prints it), and the
// tools' definitions in the shapes the model APIs expect (Export; toolgen
// schema --format), including OpenAI's strict mode (Strict).
//
// The descriptor schema is for editors: a descriptor that starts with
//
//	"$schema": "./tool.schema.json"
//
// gets completion, hover text and red squiggles. It expresses the shape of a
// descriptor and the rules a schema can state (field names and types, name
// and slot-name syntax, the characters a template may hold, a required slot
// having no default). The rules it cannot state — the deny list, every slot
// used and declared, patterns being RE2, a default inside its enum, Unicode
// lookalikes — are checked by the one validator (package
// internal/validate), which toolgen check, toolgen generate and the runtime
// loader all use. A test proves the two agree on every descriptor of the
// test corpus.
//
// The file at the repository root, tool.schema.json, is a copy of the one in
// this directory, kept identical by a test, so that descriptors anywhere in
// the repository can point at it.
package schema

import _ "embed"

// FileName is the schema's conventional file name, the one descriptors point
// at with "$schema": "./tool.schema.json".
const FileName = "tool.schema.json"

//go:embed tool.schema.json
var descriptor []byte

// Descriptor returns the JSON Schema of descriptor files. The caller may
// modify the returned slice.
func Descriptor() []byte { return append([]byte(nil), descriptor...) }
