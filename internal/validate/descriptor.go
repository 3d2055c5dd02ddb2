package validate

import (
	"errors"
	"slices"
	"strings"

	"github.com/nanogpt/toolgen/runtime/tool"
)

// Descriptor decodes a *.tool.json file (tool.DecodeSpec) and validates the
// Spec (Spec), reporting every independent problem of the file at once:
// the decoder's (unknown field, wrong JSON type, duplicate key, …) and the
// validator's, each a 613 located in the file, sorted by position. A
// validator problem about a field the decoder already reported is left out
// (a slot whose "type" is a number is not also "missing its type"). Only
// invalid JSON, or a file that is no descriptor, stops before validation.
//
// The Template is nil unless the Spec is valid (the decoder's problems
// aside: an unknown field does not make the Spec unusable, but the error is
// non-nil and the file must not be loaded).
func Descriptor(file string, data []byte, opts ...Option) (tool.Spec, *Template, *tool.Positions, error) {
	spec, pos, derr := tool.DecodeSpec(file, data)
	if !pos.Complete() {
		return spec, nil, pos, derr
	}
	decoded := tool.Flatten(derr)
	argsUnread := slices.ContainsFunc(decoded, func(e error) bool {
		var te *tool.Error
		return errors.As(e, &te) && te.Field == "arguments"
	})
	opts = append(opts, func(o *options) { o.present, o.argsUnread = pos.Has, argsUnread })
	t, verr := Spec(&spec, opts...)
	errs := decoded
	for _, e := range tool.Flatten(verr) {
		if !reportedUnder(decoded, e) {
			errs = append(errs, e)
		}
	}
	return spec, t, pos, pos.Locate(errors.Join(errs...))
}

// reportedUnder reports whether e concerns a field that one of decoded (or
// a field above it) is already about.
func reportedUnder(decoded []error, e error) bool {
	var ve *tool.Error
	if !errors.As(e, &ve) || ve.Field == "" {
		return false
	}
	for _, d := range decoded {
		var de *tool.Error
		if !errors.As(d, &de) || de.Field == "" {
			continue
		}
		if de.Field == ve.Field || strings.HasPrefix(ve.Field, de.Field+".") {
			return true
		}
	}
	return false
}
