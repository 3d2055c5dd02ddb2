package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// Digest returns the digest of s's canonical form: "sha256:" followed by the
// lower-case hex SHA-256 of the compact JSON encoding (as encoding/json
// writes it) of s with its fields in a fixed order: name, description,
// command, arguments (an array in declared order, each with name, type,
// description, required, default — null when there is none — enum — [] when
// there is none — pattern, and flag when there is one), writes, network,
// then hosts (in order), title, destructive, output_limit, runs_code,
// timeout (in nanoseconds, so that "90s" and "1m30s" are one timeout) and
// stderr ("separate"; "merged" is the default and left out), each only when
// set: a Spec without them keeps the digest it had before they existed.
// Examples are left out: they document a tool without changing
// what it runs.
//
// A generated tool embeds the digest of the descriptor it was generated from,
// so the runtime loader can tell a descriptor that is already compiled in
// (same name, same digest) from one that changed since generation. The
// digest depends only on the Spec's content, never on the file's layout:
// reformatting a descriptor or reordering its top-level fields keeps it.
func Digest(s Spec) string {
	c := canonicalSpec{
		Name:        s.Name,
		Description: s.Description,
		Command:     s.Command,
		Arguments:   make([]canonicalArg, len(s.Args)),
		Writes:      s.Writes,
		Network:     s.Network,
		Hosts:       s.Hosts,
		Title:       s.Title,
		Destructive: s.Destructive,
		OutputLimit: s.OutputLimit,
		RunsCode:    s.RunsCode,
		Timeout:     int64(s.Timeout),
	}
	if s.Stderr != StderrMerged {
		c.Stderr = string(s.Stderr)
	}
	for i, a := range s.Args {
		ca := canonicalArg{
			Name:        a.Name,
			Type:        string(a.Type),
			Description: a.Description,
			Required:    a.Required,
			Enum:        append([]string{}, a.Enum...), // nil and empty are the same: no enum
			Pattern:     a.Pattern,
			Flag:        a.Flag,
		}
		if a.HasDefault {
			ca.Default = &a.Default
		}
		c.Arguments[i] = ca
	}
	data, err := json.Marshal(c)
	if err != nil {
		panic("tool: Digest: " + err.Error()) // unreachable: only strings, bools and slices of them
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// canonicalSpec fixes the order of a Spec's fields for Digest. Its layout is
// part of the digest: changing it changes every generated tool's digest.
type canonicalSpec struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Command     string         `json:"command"`
	Arguments   []canonicalArg `json:"arguments"`
	Writes      bool           `json:"writes"`
	Network     bool           `json:"network"`
	Hosts       []string       `json:"hosts,omitempty"`
	Title       string         `json:"title,omitempty"`
	Destructive *bool          `json:"destructive,omitempty"`
	// OutputLimit is left out when zero, so that Specs without one keep
	// the digests they had before the field existed.
	OutputLimit int `json:"output_limit,omitempty"`
	// RunsCode is left out when false, like OutputLimit.
	RunsCode bool `json:"runs_code,omitempty"`
	// Timeout and Stderr are left out when unset, as OutputLimit.
	Timeout int64  `json:"timeout,omitempty"`
	Stderr  string `json:"stderr,omitempty"`
}

type canonicalArg struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     *string  `json:"default"` // null when the slot has no default
	Enum        []string `json:"enum"`
	Pattern     string   `json:"pattern"`
	Flag        string   `json:"flag,omitempty"` // left out when empty, as OutputLimit
}
