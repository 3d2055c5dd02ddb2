package tool

import (
	"encoding/json"
	"strconv"
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
