package tool

// Hints are what a tool that is not a SpecTool claims about its calls, for
// the clients that show them or act on them (the MCP annotations and
// outputSchema of runtime/mcp). A SpecTool's come from its Spec.
type Hints struct {
	// Title is the tool's human-readable name; "" for none.
	Title string
	// ReadOnly claims that no call changes anything outside the call.
	ReadOnly bool
	// Destructive claims, for a tool that is not ReadOnly, that a call may
	// delete or overwrite data.
	Destructive bool
	// OpenWorld, when not nil, claims whether calls reach the network; nil
	// claims nothing.
	OpenWorld *bool
	// RunsCommand says that each call runs at most one command on a
	// runtime/kernel Kernel, whose result (exit status, output, limits)
	// describes the call: runtime/mcp returns it as structuredContent.
	RunsCommand bool
}

// A Hinted tool states its Hints. A tool that is neither Hinted nor a
// SpecTool claims nothing.
type Hinted interface {
	Tool
	// Hints returns the tool's claims; the same for every call.
	Hints() Hints
}
