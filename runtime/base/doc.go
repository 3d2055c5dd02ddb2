// Package base is CommandToolBase: a Spec plus a kernel make a Tool. It is
// the one path from a Spec to a running tool, shared by code-form tools
// (which embed it), declarative tools (which the loader builds from a file)
// and generated tools (Typed, which embeds it, over a Spec literal).
//
// A call goes: decode the model's JSON arguments (unknown argument, wrong
// JSON type or a missing required slot is a 614), check every value with
// the slot-value rules (toolgen's internal validator), assemble the argv from the template's
// words, and run it through the kernel. There is no shell at any point.
//
// Go callers get typed results: Execute (and Typed's Run) return the
// kernel.Result — exit code, output, truncation, timeout, duration — with
// the model's text as Result.Text; a non-zero exit status is a Result, not
// an error.
//
// Typed[In] is the one generic runtime type behind every generated tool: a
// generated file holds data (a Spec literal, its digest, an argument
// struct) and one-line constructors over NewGenerated, and asserts at
// compile time that it fits this runtime (EnforceVersion). WithDenyList
// takes a programs.DenyList, the one deny-list type, which a module
// outside toolgen can name.
//
// A code-form tool is a Spec literal and a constructor:
//
//	type GrepTool struct{ *base.CommandToolBase }
//
//	func NewGrepTool(k *kernel.Kernel) (*GrepTool, error) {
//		b, err := base.New(grepSpec, k)
//		if err != nil {
//			return nil, err
//		}
//		return &GrepTool{b}, nil
//	}
package base
