package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/nanogpt/toolgen/internal/suggest"
	"github.com/nanogpt/toolgen/runtime/tool"
	"github.com/nanogpt/toolgen/schema"
)

// flagHints are the advice for flags a newcomer gives to a command that
// does not take them, by "COMMAND FLAG", where a spelling suggestion would
// not help.
var flagHints = map[string]string{
	"check tools": "toolgen check takes the directories and files to check as arguments: toolgen check DIR",
	"check dir":   "toolgen check takes the directories and files to check as arguments: toolgen check DIR",
	"init tools":  "toolgen init takes the directory to create as an argument: toolgen init DIR",
	"audit audit": "toolgen audit takes the log files as arguments, oldest first: toolgen audit FILE.1 FILE",
}

// flagSynonyms are flag names people try, with the flag that does it.
var flagSynonyms = map[string]string{
	"port": "http", "listen": "http", "addr": "http", "address": "http", "bind": "http",
	"token": "token-file", "allow-exec": "exec-allow", "exec": "exec-allow", "allow-net": "net-allow", "net": "net-allow",
	"allow-host": "net-allow", "allow-hosts": "net-allow", "hosts": "net-allow", "workdir": "workspace",
	"cwd": "workspace", "dir": "tools", "tool-dir": "tools", "tools-dir": "tools", "format": "error-format",
}

// otherCommands is commands, set at init: the commands' run functions parse
// their flags with the advice below, which looks at every command, so a
// direct reference would be an initialization cycle.
var otherCommands func() []*command

func init() { otherCommands = commands }

// undefinedFlag matches the flag package's error for a flag that the flag
// set does not define.
var undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -(.+)$`)

// unknownFlagHint returns advice for err from FlagSet.Parse when it is about
// a flag that c does not define: a flag of c spelt nearly the same, the
// flag that does what a common other name means, or the commands that do
// take it. It returns "" for other errors and when it knows nothing useful.
func unknownFlagHint(c *command, fs *flag.FlagSet, err error) string {
	m := undefinedFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return ""
	}
	name := strings.ToLower(m[1])
	if h, ok := flagHints[c.name+" "+name]; ok {
		return h
	}
	if alt, ok := flagSynonyms[name]; ok && fs.Lookup(alt) != nil {
		return "did you mean --" + alt + "?"
	}
	if best := closest(name, visibleFlags(fs)); best != "" {
		return "did you mean --" + best + "?"
	}
	var others []string
	for _, o := range otherCommands() {
		if o.name != c.name && containsName(flagsOf(o), name) {
			others = append(others, o.name)
		}
	}
	if len(others) > 0 {
		return fmt.Sprintf("--%s is a flag of toolgen %s, not of toolgen %s", name, joinOr(others), c.name)
	}
	return ""
}

// visibleFlags returns the names of the flags fs lists in its help (not
// aliases or hidden spellings).
func visibleFlags(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if _, alias := f.Value.(aliasValue); !alias && !hiddenFlags[f.Name] {
			names = append(names, f.Name)
		}
	})
	return names
}

// helpFlag matches a flag in the list that "toolgen CMD -h" prints.
var helpFlag = regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)

// flagsOf returns the flags that "toolgen CMD -h" lists for c: the one
// source of every command's flags, since each registers them when it runs.
func flagsOf(c *command) []string {
	var out bytes.Buffer
	c.run(c, &cmdEnv{stdout: &out, stderr: io.Discard}, []string{"-h"})
	var names []string
	for _, m := range helpFlag.FindAllStringSubmatch(out.String(), -1) {
		names = append(names, m[1])
	}
	return names
}

// suggestCommand returns advice for an unknown command name: the command
// spelt nearly the same, or "".
func suggestCommand(name string) string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if best := closest(strings.ToLower(name), names); best != "" {
		return "did you mean toolgen " + best + "?"
	}
	return ""
}

// closest returns the candidate nearest to name: within an edit distance of
// 1 for names of up to 4 letters and 2 for longer ones, or holding name (or
// held by it) when the shorter has at least 4 letters; "" when none is.
// Ties go to the smaller distance, then to the name first in sort order.
func closest(name string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", 1<<30
	for _, c := range sorted {
		d := suggest.Distance(name, c)
		limit := 2
		if min(len(name), len(c)) <= 4 {
			limit = 1
		}
		short, long := name, c
		if len(short) > len(long) {
			short, long = long, short
		}
		if d > limit && !(len(short) >= 4 && strings.Contains(long, short)) {
			continue
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// joinOr joins names as "a", "a or b", "a, b or c".
func joinOr(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// jsonArgsHint returns advice for a JSON_ARGS that is not valid JSON, for
// the person at the shell (the model's text, on stdout, is the 614): the
// usual cause is the shell, which removes double quotes that are not inside
// single quotes. It returns "" for valid JSON.
func jsonArgsHint(c *command, t tool.Tool, raw []byte) string {
	if json.Valid(raw) {
		return ""
	}
	hint := "JSON_ARGS is one JSON object with double-quoted keys and strings, in single quotes so that the shell keeps them: " +
		"toolgen " + c.name + " " + t.Name() + " '" + exampleArgs(t.InputSchema()) + "'"
	if !bytes.ContainsRune(raw, '"') && bytes.ContainsRune(raw, ':') {
		hint += " (these arguments hold no double quote: did the shell remove them?)"
	}
	return "toolgen " + c.name + ": " + hint
}

// unexpectedArg is the usage error for a positional argument that c (list,
// schema, serve) does not take, with what the argument was likely meant
// for: a directory is given with --tools, a schema format with --format.
func unexpectedArg(c *command, env *cmdEnv, arg, why string) int {
	hint := why
	if c.name == "schema" {
		if _, err := schema.ParseFormat(arg); err == nil {
			hint = "the format is given with --format " + arg
		}
	}
	if st, err := os.Stat(arg); err == nil && st.IsDir() && hint == why {
		hint = "a descriptor directory is given with --tools " + arg
		if why != "" {
			hint += "; " + why
		}
	}
	if hint != "" {
		return c.usageErr(env, "unexpected argument %q (%s)", arg, hint)
	}
	return c.usageErr(env, "unexpected argument %q", arg)
}

// exampleArgs returns a JSON object naming the tool's first required
// argument (or its first argument) with a placeholder of its type, for
// advice: {"pattern":"..."}, {"lines":5}; {} for a tool without arguments.
func exampleArgs(inputSchema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(inputSchema, &s) != nil || len(s.Properties) == 0 {
		return "{}"
	}
	name := ""
	if len(s.Required) > 0 {
		name = s.Required[0]
	} else {
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		name = names[0]
	}
	key, _ := json.Marshal(name)
	value := `"..."`
	switch s.Properties[name].Type {
	case "integer", "number":
		value = "5"
	}
	return "{" + string(key) + ":" + value + "}"
}
