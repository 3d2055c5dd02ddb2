package sandbox

import "slices"

// Bundle is a named set of system paths a confined command may read, as a
// unit: a policy reads the System bundle always and the Network bundle
// when it allows the network. Paths that do not exist are skipped, and a
// symlink grants its target (see the package doc for why each is there).
// What one program needs besides (git's /etc/gitconfig) is not a bundle:
// the kernel's Programs hook adds it to Policy.Read for that program only.
type Bundle struct {
	// Name is how Policy.String and explain name the bundle.
	Name string
	// Dirs may be read and listed, never executed from.
	Dirs []string
	// Files may be read.
	Files []string
}

// System returns the bundle any confined command may read, whatever its
// policy: a fresh copy each call, so that no importer can widen what
// another's commands read. The program directories (/usr/bin, /bin, /sbin,
// ...) are deliberately absent: a program the dynamic loader could be
// asked to load (a shell, an interpreter) must not even be readable.
func System() Bundle { return systemBundle.clone() }

// Network returns the bundle of name resolution and TLS trust, read when
// the policy allows the network: a fresh copy each call, as System.
func Network() Bundle { return networkBundle.clone() }

// Build returns the bundle a command that runs the repository's code
// (Policy's RunsCode) reads besides, a fresh copy each call as System: the
// program directories (a makefile's recipes run through /bin/sh, a
// compiler driver runs its assembler and linker, a test runs what it likes
// of the system's tools), the system's headers, and the user and host
// databases a build or a test looks names up in. Such a command may
// execute what it reads.
func Build() Bundle { return buildBundle.clone() }

// The bundles, never handed out but as copies.
var (
	systemBundle = Bundle{
		Name: "system",
		Dirs: []string{"/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/share",
			"/usr/local/lib", "/usr/local/share", "/lib", "/lib32", "/lib64", "/libx32"},
		Files: []string{"/etc/ld.so.cache", "/etc/localtime", "/dev/urandom", "/dev/zero"},
	}
	networkBundle = Bundle{
		Name: "network",
		Dirs: []string{"/run/systemd/resolve", "/etc/ssl/certs", "/etc/pki/tls/certs", "/etc/pki/ca-trust/extracted"},
		Files: []string{"/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf",
			"/etc/services", "/etc/protocols", "/etc/ssl/openssl.cnf"},
	}
	buildBundle = Bundle{
		Name: "build",
		Dirs: []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/include", "/usr/local/include",
			"/usr/libexec", "/usr/local/libexec"},
		Files: []string{"/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts", "/etc/services", "/etc/protocols", "/etc/mime.types", "/etc/ssl/openssl.cnf"},
	}
)

// Bundles returns the bundles p reads, in order.
func (p Policy) Bundles() []Bundle {
	out := []Bundle{System()}
	if p.RunsCode {
		out = append(out, Build())
	}
	if p.Network {
		out = append(out, Network())
	}
	return out
}

// clone returns b with slices of its own.
func (b Bundle) clone() Bundle {
	b.Dirs = slices.Clone(b.Dirs)
	b.Files = slices.Clone(b.Files)
	return b
}
