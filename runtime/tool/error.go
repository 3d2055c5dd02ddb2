package tool

import (
	"fmt"
	"strings"
)

// Code is a toolgen error code.
type Code int

const (
	// CodeSpec (613) means a descriptor or Spec is invalid: bad JSON, unknown
	// field, name conflict, template metacharacter, denied binary, incomplete
	// slot schema. It surfaces at load, generate or construction time.
	CodeSpec Code = 613
	// CodeValue (614) means a slot value was rejected at call time. Its
	// message is returned to the model as the tool's result.
	CodeValue Code = 614
)

// Error is the one error type of toolgen. Use errors.As to get at it:
//
//	var te *tool.Error
//	if errors.As(err, &te) && te.Code == tool.CodeValue { ... }
type Error struct {
	// Code is CodeSpec or CodeValue.
	Code Code
	// File names the descriptor file, when there is one.
	File string
	// Line and Col locate the problem in File (1-based); zero when unknown.
	Line, Col int
	// Field is the place in the descriptor the problem concerns, as a dotted
	// path such as "arguments.path.type"; a loader maps it to Line and Col.
	Field string
	// Slot names the slot a 614 concerns.
	Slot string
	// Msg says what is wrong and, where it can, what would be accepted.
	Msg string
	// Err is an underlying cause, if any.
	Err error
}

// Error formats the error as "FILE:LINE:COL: error 613: msg" (parts that are
// unknown are left out) or "error 614: slot "x": msg".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "error %d: ", int(e.Code))
	if e.Slot != "" {
		fmt.Fprintf(&b, "slot %q: ", e.Slot)
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// SpecErrorf returns a 613 error about the descriptor field field.
func SpecErrorf(field, format string, args ...any) *Error {
	return &Error{Code: CodeSpec, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ValueErrorf returns a 614 error about the value of slot.
func ValueErrorf(slot, format string, args ...any) *Error {
	return &Error{Code: CodeValue, Slot: slot, Msg: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of the first *Error in err's chain, or 0.
func CodeOf(err error) Code {
	for err != nil {
		if te, ok := err.(*Error); ok {
			return te.Code
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if c := CodeOf(e); c != 0 {
					return c
				}
			}
			return 0
		default:
			return 0
		}
	}
	return 0
}
