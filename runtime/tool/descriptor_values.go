package tool

import (
	"encoding/json"
	"strconv"
	"time"
)

// jsonKind is the JSON type of a scalar the decoder read.
type jsonKind int

// The JSON types of a slot's default.
const (
	jsonString jsonKind = iota
	jsonNumber
	jsonBool
)

// defaultValue reads a slot's default: a JSON string, number or boolean,
// as text ("true"/"false" for a boolean), and which of the three it was.
func (d *specDecoder) defaultValue(field string) (string, jsonKind, error) {
	tok, off, err := d.token(field)
	if err != nil {
		return "", jsonString, err
	}
	d.mark(field, off)
	switch v := tok.(type) {
	case string:
		return v, jsonString, nil
	case json.Number:
		return v.String(), jsonNumber, nil
	case bool:
		return strconv.FormatBool(v), jsonBool, nil
	}
	d.report(d.errAt(off, field, "%s must be a string, a number or a boolean, found %s", label(field), kind(tok)))
	return "", jsonString, d.skipRest(field, tok)
}

// integer reads a JSON number that is a whole number and fits an int (the
// range is package validate's to check); ok is false when it is not one
// (reported).
func (d *specDecoder) integer(field string) (n int, ok bool, err error) {
	tok, off, err := d.token(field)
	if err != nil {
		return 0, false, err
	}
	d.mark(field, off)
	num, isNum := tok.(json.Number)
	if !isNum {
		d.report(d.errAt(off, field, "%s must be a whole number, found %s", label(field), kind(tok)))
		return 0, false, d.skipRest(field, tok)
	}
	i, perr := strconv.ParseInt(num.String(), 10, 64)
	if perr != nil || int64(int(i)) != i {
		d.report(d.errAt(off, field, "%s must be a whole number of bytes, found %s", label(field), num.String()))
		return 0, false, nil
	}
	return int(i), true, nil
}

// timeout reads a descriptor's "timeout": a string in Go's duration form
// ("90s", "5m", "1h30m") that is more than zero. A bad one is reported
// where it stands and read as 0 (the run's timeout); the upper bound
// (MaxTimeout) is package validate's to check.
func (d *specDecoder) timeout(field string) (time.Duration, error) {
	tok, off, err := d.token(field)
	if err != nil {
		return 0, err
	}
	d.mark(field, off)
	text, isStr := tok.(string)
	if !isStr {
		d.report(d.errAt(off, field, `timeout must be a duration string such as "90s", "5m" or "1h30m", found %s`, kind(tok)))
		return 0, d.skipRest(field, tok)
	}
	v, perr := time.ParseDuration(text)
	switch {
	case perr != nil:
		d.report(d.errAt(off, field, `timeout %q is not a duration: write a number with a unit (ns, us, ms, s, m, h), such as "90s", "5m" or "1h30m"`, text))
		return 0, nil
	case v <= 0:
		d.report(d.errAt(off, field, `timeout %q is not more than zero: give how long a call may run, such as "5m", or leave it out for the run's timeout`, text))
		return 0, nil
	}
	return v, nil
}
