package kernel

// MaxOutputLimit is the largest output limit a kernel takes: 1 MiB. A
// call's output is kept in memory up to its limit, and a model's whole
// context holds less than that; tool.MaxOutputLimit, the bound of a
// descriptor's output_limit, is the same.
const MaxOutputLimit = 1 << 20

// WithOutputLimitOf returns a kernel that is k in every respect except that
// the model sees at most n bytes of a command's output (see
// WithOutputLimit); n is clamped to 1…MaxOutputLimit. It returns k itself
// when k's limit is already n. A tool whose Spec sets its own output limit
// derives its kernel this way (package base does), after WithAccess.
func (k *Kernel) WithOutputLimitOf(n int) *Kernel {
	n = min(max(n, 1), MaxOutputLimit)
	if k.limit == n {
		return k
	}
	d := *k // every field is immutable after New: sharing them is safe
	d.limit = n
	return &d
}
