package tool

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/nanogpt/toolgen/internal/suggest"
)

// topFields are the fields of a descriptor object.
var topFields = []string{"$schema", "$comment", "name", "description", "command", "arguments", "writes", "runs_code", "network", "title", "destructive", "output_limit", "timeout", "stderr", "examples"}

// argFields are the fields of a slot object.
var argFields = []string{"type", "description", "required", "default", "enum", "pattern", "flag"}

// networkFields are the fields of a "network" object.
var networkFields = []string{"hosts"}

// network decodes "network": true, false or {"hosts": ["host:port", ...]}.
// Each entry's form is package validate's to check (its position is kept
// as network.hosts.N); here it must be a string, and the list non-empty.
func (d *specDecoder) network(field string) (bool, []string, error) {
	off := d.next()
	if off >= int64(len(d.data)) || d.data[off] != '{' {
		tok, off, err := d.token(field)
		if err != nil {
			return false, nil, err
		}
		d.mark(field, off)
		if b, ok := tok.(bool); ok {
			return b, nil, nil
		}
		d.report(d.errAt(off, field, `network must be true, false or {"hosts": ["host:port", ...]}, found %s`, kind(tok)))
		return false, nil, d.skipRest(field, tok)
	}
	d.mark(field, off)
	hosts := []string{}
	found, before := false, len(d.problems)
	err := d.object(field, "network", func(key string, off int64) error {
		f := field + "." + key
		d.mark(f, off)
		if key != "hosts" {
			return d.unknown(off, field, key, networkFields)
		}
		found = true
		return d.array(f, f, func(i int) error {
			v, err := d.str(f + "." + itoa(i))
			hosts = append(hosts, v)
			return err
		})
	})
	if err != nil {
		return false, nil, err
	}
	if len(d.problems) == before && (!found || len(hosts) == 0) {
		d.report(d.errAt(off, field, `network {} names no host: list them, {"hosts": ["api.github.com:443"]}, or write false`))
	}
	return false, hosts, nil
}

// exampleFields are the fields of an example object.
var exampleFields = []string{"args", "argv", "rejects"}

// spec decodes the whole descriptor.
func (d *specDecoder) spec() (Spec, error) {
	var s Spec
	found := map[string]bool{}
	err := d.object("", "a descriptor", func(key string, off int64) error {
		d.mark(key, off)
		found[key] = true
		return d.topField(&s, key, off)
	})
	if err != nil {
		return Spec{}, err
	}
	rest := d.data[d.dec.InputOffset():]
	if trimmed := bytes.TrimLeft(rest, " \t\r\n"); len(trimmed) > 0 {
		off := int64(len(d.data) - len(trimmed))
		return Spec{}, d.errAt(off, "", "trailing data after the descriptor object: a file holds exactly one JSON object")
	}
	for _, f := range []string{"name", "description", "command"} {
		if !found[f] && !d.suggested[f] {
			d.report(d.errAt(-1, f, "required field %q is missing", f))
		}
	}
	return s, nil
}

func (d *specDecoder) topField(s *Spec, key string, off int64) error {
	var err error
	switch key {
	case "$schema", "$comment": // for editors and readers; not part of the Spec
		_, err = d.str(key)
	case "name":
		s.Name, err = d.str(key)
	case "description":
		s.Description, err = d.str(key)
	case "command":
		s.Command, err = d.str(key)
	case "writes":
		s.Writes, err = d.boolean(key)
	case "runs_code":
		s.RunsCode, err = d.boolean(key)
	case "network":
		s.Network, s.Hosts, err = d.network(key)
	case "title":
		s.Title, err = d.str(key)
	case "destructive":
		var b bool
		if b, err = d.boolean(key); err == nil {
			s.Destructive = &b
		}
	case "output_limit":
		var ok bool
		if s.OutputLimit, ok, err = d.integer(key); ok && s.OutputLimit == 0 {
			d.report(d.errAt(off, key, "output_limit is 0: give the number of bytes of output the model sees (1 to %d), or leave it out for the default", MaxOutputLimit))
		}
	case "timeout":
		s.Timeout, err = d.timeout(key)
	case "stderr":
		var m string
		m, err = d.str(key)
		s.Stderr = StderrMode(m)
	case "arguments":
		err = d.object(key, "arguments", func(name string, off int64) error {
			a, err := d.arg(name, off)
			s.Args = append(s.Args, a)
			return err
		})
	case "examples":
		err = d.array(key, "examples", func(i int) error {
			ex, err := d.example("examples." + itoa(i))
			s.Examples = append(s.Examples, ex)
			return err
		})
	default:
		return d.unknown(off, "", key, topFields)
	}
	return err
}

// arg decodes one slot object.
func (d *specDecoder) arg(name string, off int64) (Arg, error) {
	field := "arguments." + name
	d.mark(field, off)
	a := Arg{Name: name}
	var defaultKind jsonKind
	var enumHasNumber, enumHasString bool
	err := d.object(field, "slot "+quote(name), func(key string, off int64) error {
		f := field + "." + key
		d.mark(f, off)
		var err error
		switch key {
		case "type":
			var t string
			t, err = d.str(f)
			a.Type = ArgType(t)
		case "description":
			a.Description, err = d.str(f)
		case "required":
			a.Required, err = d.boolean(f)
		case "pattern":
			a.Pattern, err = d.str(f)
		case "flag":
			a.Flag, err = d.str(f)
		case "default":
			a.Default, defaultKind, err = d.defaultValue(f)
			a.HasDefault = true
		case "enum":
			err = d.array(f, label(f), func(i int) error {
				v, isNum, err := d.scalar(f + "." + itoa(i))
				enumHasNumber = enumHasNumber || isNum
				enumHasString = enumHasString || !isNum
				a.Enum = append(a.Enum, v)
				return err
			})
		default:
			return d.unknown(off, field, key, argFields)
		}
		return err
	})
	if err != nil {
		return a, err
	}
	if err := d.checkJSONTypes(a, field, defaultKind, enumHasNumber, enumHasString); err != nil {
		d.report(err)
	}
	return a, nil
}

// checkJSONTypes requires defaults and enum values to have the JSON type of
// their slot: numbers for integer and number slots, true or false for a
// boolean slot (which has no enum: package validate says so), strings
// otherwise.
func (d *specDecoder) checkJSONTypes(a Arg, field string, def jsonKind, enumNum, enumStr bool) *Error {
	if !a.Type.Valid() {
		return nil // package validate reports the type; the JSON types follow from it
	}
	numeric := a.Type.Numeric()
	want, wants, kind := "a string", "strings", jsonString
	switch {
	case numeric:
		want, wants, kind = "a number", "numbers", jsonNumber
	case a.Type == Boolean:
		want, kind = "true or false", jsonBool
	}
	if a.HasDefault && def != kind {
		p, _ := d.pos.Of(field + ".default")
		return d.errPos(p, field+".default", "slot %q: default must be %s for a slot of type %s", a.Name, want, a.Type)
	}
	if a.Type != Boolean && ((numeric && enumStr) || (!numeric && enumNum)) {
		p, _ := d.pos.Of(field + ".enum")
		return d.errPos(p, field+".enum", "slot %q: enum values must be %s for a slot of type %s", a.Name, wants, a.Type)
	}
	return nil
}

func (d *specDecoder) errPos(p Pos, field, format string, args ...any) *Error {
	e := d.errAt(-1, field, format, args...)
	e.Line, e.Col = p.Line, p.Col
	return e
}

// example decodes one example object.
func (d *specDecoder) example(field string) (Example, error) {
	d.mark(field, d.next())
	var ex Example
	hasRejects := false
	err := d.object(field, "an example", func(key string, off int64) error {
		f := field + "." + key
		d.mark(f, off)
		switch key {
		case "args":
			start := d.next()
			var raw json.RawMessage
			if err := d.dec.Decode(&raw); err != nil {
				return d.syntaxErr(start, f, err)
			}
			if len(raw) == 0 || raw[0] != '{' {
				d.report(d.errAt(start, f, "%s must be a JSON object of slot values", f))
				return nil
			}
			ex.Args = string(raw)
			return nil
		case "argv":
			ex.Argv = []string{}
			return d.array(f, f, func(i int) error {
				v, err := d.str(f + "." + itoa(i))
				ex.Argv = append(ex.Argv, v)
				return err
			})
		case "rejects":
			var err error
			if ex.Rejects, err = d.str(f); err == nil && ex.Rejects == "" {
				d.report(d.errAt(off, f, "%s is empty: give part of the 614 message that rejects the call", f))
			}
			hasRejects = true
			return err
		}
		return d.unknown(off, field, key, exampleFields)
	})
	if err == nil && (ex.Argv == nil) == !hasRejects {
		p, _ := d.pos.Of(field)
		d.report(d.errPos(p, field, "%s needs exactly one of \"argv\" (the expected command) or \"rejects\" (part of the expected 614 message)", field))
	}
	return ex, err
}

// unknown reports an unknown field, suggesting the closest known one.
func (d *specDecoder) unknown(off int64, field, key string, known []string) error {
	msg, about := "unknown field "+quote(key), join(field, key)
	if s := closestField(key, known); s != "" {
		about = join(field, s) // the problem is with that field: it is misspelt
		msg += " (did you mean " + quote(s) + "?)"
		if d.suggested == nil {
			d.suggested = map[string]bool{}
		}
		d.suggested[join(field, s)] = true
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	d.report(d.errAt(off, about, "%s; known fields: %s", msg, strings.Join(sorted, ", ")))
	return d.skipValue(join(field, key))
}

// closestField returns the known field closest to key, if close enough.
func closestField(key string, known []string) string {
	if key == "" {
		return ""
	}
	best, bestDist := "", 3
	for _, k := range known {
		if strings.HasPrefix(k, key) || strings.HasPrefix(key, k) {
			return k
		}
		if dist := suggest.Distance(strings.ToLower(key), k); dist < bestDist {
			best, bestDist = k, dist
		}
	}
	return best
}

func quote(s string) string { return strconv.Quote(s) }
