package preset

import (
	"strings"

	"github.com/nanogpt/toolgen/runtime/exec"
	"github.com/nanogpt/toolgen/runtime/tool"
)

// WithExec grants ExecTool the binaries, bare command names resolved through
// the kernel's PATH, and registers it as the tool "exec" (form exec). Repeated
// options accumulate. Without this option, or with no binaries, there is no
// exec tool: it is off by default.
//
// ExecTool checks the grant against the preset's deny list: granting a denied
// binary (rm, bash, python3 …) makes New fail with a 613 unless the list was
// narrowed explicitly with WithDenyListNarrowed, and so does granting a binary
// the flag table refuses outright (less, crontab).
func WithExec(binaries ...string) Option {
	return func(c *config) { c.exec = append(c.exec, binaries...) }
}

// addExec builds ExecTool on the preset's kernel and deny list, when binaries
// are granted, with the network hosts of WithExecHosts.
func (p *Preset) addExec(binaries, hosts []string) error {
	if len(binaries) == 0 || !p.selected("exec") {
		return nil
	}
	t, err := exec.New(p.Kernel, binaries, exec.WithDenyList(p.deny), exec.WithHosts(hosts...))
	if err != nil {
		return err
	}
	return p.Registry.Add(tool.Entry{Tool: t, Form: tool.FormExec, Source: "exec (" + strings.Join(t.Allowed(), ",") + ")"})
}
