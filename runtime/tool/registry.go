package tool

import (
	"fmt"
	"sort"
	"sync"
)

// Entry is a tool together with where it came from.
type Entry struct {
	// Tool is the tool itself.
	Tool Tool
	// Form is the lineage form of the tool.
	Form Form
	// Source names where the tool was defined (a file, a package, "builtin"),
	// for messages about conflicts.
	Source string
	// Group is the set of tools the entry is replaced with; see
	// Registry.ReplaceGroup. The zero value is a group of its own.
	Group string
}

// Registry is a set of tools keyed by name. The zero value is empty and ready
// to use. It is safe for concurrent use; readers never see a half-applied
// ReplaceGroup.
type Registry struct {
	mu      sync.RWMutex
	entries map[string]Entry
}

// Add registers e. A tool whose name is already registered is refused with a
// 613 that names both sources.
func (r *Registry) Add(e Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.conflict(e, ""); err != nil {
		return err
	}
	r.put(e)
	return nil
}

// ReplaceGroup atomically swaps every entry of group for entries (all of which
// are put in group). A name that clashes with a tool outside the group, or
// twice within entries, refuses the whole swap with a 613 and changes nothing.
func (r *Registry) ReplaceGroup(group string, entries []Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]string{}
	for _, e := range entries {
		if prev, ok := seen[e.Tool.Name()]; ok {
			return conflictError(e.Tool.Name(), prev, e.Source)
		}
		seen[e.Tool.Name()] = e.Source
		if err := r.conflict(e, group); err != nil {
			return err
		}
	}
	for name, e := range r.entries {
		if group != "" && e.Group == group {
			delete(r.entries, name)
		}
	}
	for _, e := range entries {
		e.Group = group
		r.put(e)
	}
	return nil
}

// Get returns the tool named name.
func (r *Registry) Get(name string) (Tool, bool) {
	e, ok := r.Lookup(name)
	return e.Tool, ok
}

// Lookup returns the entry named name.
func (r *Registry) Lookup(name string) (Entry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.entries[name]
	return e, ok
}

// Entries returns the entries sorted by name.
func (r *Registry) Entries() []Entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Entry, 0, len(r.entries))
	for _, e := range r.entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool.Name() < out[j].Tool.Name() })
	return out
}

// Tools returns the tools sorted by name.
func (r *Registry) Tools() []Tool {
	es := r.Entries()
	out := make([]Tool, len(es))
	for i, e := range es {
		out[i] = e.Tool
	}
	return out
}

// Len returns the number of tools.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.entries)
}

func (r *Registry) conflict(e Entry, group string) error {
	prev, ok := r.entries[e.Tool.Name()]
	if !ok || (group != "" && prev.Group == group) {
		return nil
	}
	return conflictError(e.Tool.Name(), prev.Source, e.Source)
}

func (r *Registry) put(e Entry) {
	if r.entries == nil {
		r.entries = map[string]Entry{}
	}
	r.entries[e.Tool.Name()] = e
}

func conflictError(name, first, second string) *Error {
	return &Error{Code: CodeSpec, File: second, Field: "name",
		Msg: fmt.Sprintf("tool name %q is already defined by %s", name, first)}
}
