package base

// Generated code asserts at compile time that it fits this runtime, as
// protobuf-go's generated code does with protoimpl.EnforceVersion: a file
// generated for version V holds
//
//	const (
//		_ = base.EnforceVersion(V - base.MinGeneratedVersion)
//		_ = base.EnforceVersion(base.MaxGeneratedVersion - V)
//	)
//
// and a negative constant does not convert to the unsigned EnforceVersion,
// so a file older than this runtime supports (V < MinGeneratedVersion), or
// newer (V > MaxGeneratedVersion), fails to compile with an error on that
// line instead of misbehaving at run time. toolgen generates version
// GeneratedVersion.

// EnforceVersion is the type of the generated code's version assertion.
// Its value has no meaning.
type EnforceVersion uint

const (
	// GeneratedVersion is the version of the code toolgen generates now.
	GeneratedVersion = 1
	// MinGeneratedVersion is the oldest generated code this runtime runs.
	MinGeneratedVersion = 1
	// MaxGeneratedVersion is the newest generated code this runtime runs.
	MaxGeneratedVersion = 1
)
