package base

import (
	"bytes"
	"encoding/json"
	"errors"
)

// errNotObject means the arguments are valid JSON but not an object.
var errNotObject = errors.New("not a JSON object")

// eachMember calls f for every member of the JSON object data, in order,
// with the key (unescaped) and the raw value. data must already be valid
// JSON (json.Valid); that is what keeps this scanner small: it only finds
// boundaries, it never has to reject malformed input.
func eachMember(data []byte, f func(key string, raw []byte) error) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return errNotObject
	}
	i = skipSpace(data, i+1)
	for i < len(data) && data[i] != '}' {
		end := stringEnd(data, i)
		key, err := unquote(data[i:end])
		if err != nil {
			return err
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // the ':'
		vend := valueEnd(data, i)
		if err := f(key, data[i:vend]); err != nil {
			return err
		}
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
	}
	return nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the offset just past the JSON string starting at i.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// valueEnd returns the offset just past the JSON value starting at i.
func valueEnd(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && !isDelimiter(data[j]) {
		j++
	}
	return j
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// unquote returns the text of the JSON string s; strings without escapes
// are converted directly, the rest go through encoding/json.
func unquote(s []byte) (string, error) {
	if len(s) >= 2 && bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1]), nil
	}
	var out string
	err := json.Unmarshal(s, &out)
	return out, err
}
