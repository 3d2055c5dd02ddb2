//go:build linux

package kernel

import (
	"encoding/json"
	"errors"
	"os"

	"github.com/nanogpt/toolgen/runtime/sandbox"
)

// protectMounts binds the protected paths pr read-only in the calling
// spawner thread's mount namespace (root, after sandbox.NoExecWorkspace,
// whose failure noexec is: then the thread has no namespace of its own to
// mount in, and the protection fails with it).
func protectMounts(pr sandbox.Protection, noexec error) error {
	if noexec != nil {
		return errors.New("no mount namespace for the call: " + noexec.Error())
	}
	return sandbox.ProtectMounts(pr)
}

// encodeProtection and decodeProtection pass the protected paths the
// kernel computed (the spawner's key holds them) to the holder.
func encodeProtection(pr sandbox.Protection) string {
	b, _ := json.Marshal(pr) // strings only: cannot fail
	return string(b)
}

func decodeProtection(s string) (sandbox.Protection, error) {
	var pr sandbox.Protection
	err := json.Unmarshal([]byte(s), &pr)
	return pr, err
}

// protectWhy is why a confined call through s does not get the protected
// paths read-only, "" when it does.
func protectWhy(state int32, s *spawner, chroot bool) string {
	if os.Geteuid() == 0 && s.protect != nil {
		return s.protect.Error()
	}
	return noexecWhy(state, s, chroot) // the same namespace holds both
}

// protected fills in what the calls of pol get of the protected paths
// pr (pol.Protection(): its workspace's and its Protect), why being why
// the read-only mounts are missing ("" when they are not).
func (g *Guarantees) protected(pol sandbox.Policy, pr sandbox.Protection, why string) {
	list := pr.String(pol.Workspace)
	if why == "" {
		g.Protected = list
		return
	}
	g.Protected = "not enforced (" + why + "): " + list
	if pol.Write {
		g.Missing = append(g.Missing, "read-only protected paths ("+why+"): a writing call can change git's hooks and configuration and the editors' and agents' configuration")
	}
}
