package sandbox

import (
	"os"
	"strconv"
)

// daemonSockets are the Unix sockets of daemons that run code, start
// containers or change the system on request: the container runtimes'
// (Docker, Podman, containerd, CRI-O, BuildKit), the system and session
// buses (D-Bus: systemd, and every service on the bus, act on messages),
// and systemd's private socket. A confined command must not reach them:
// each that exists is masked (the null device bound over it) in the
// command's mount namespace, so connecting fails with ECONNREFUSED.
// USER stands for the directory of this user's runtime files.
func daemonSockets() []string {
	user := "/run/user/" + strconv.Itoa(os.Getuid())
	return append([]string{
		"/run/docker.sock", "/var/run/docker.sock",
		"/run/podman/podman.sock", "/var/run/podman/podman.sock",
		"/run/containerd/containerd.sock", "/run/containerd/containerd.sock.ttrpc", "/var/run/containerd/containerd.sock",
		"/run/crio/crio.sock", "/run/buildkit/buildkitd.sock",
		"/run/dbus/system_bus_socket", "/var/run/dbus/system_bus_socket",
		"/run/systemd/private",
		user + "/bus", user + "/docker.sock", user + "/podman/podman.sock", user + "/systemd/private",
		user + "/buildkit/buildkitd.sock", user + "/containerd/containerd.sock",
	}, testSockets...)
}

// testSockets are more sockets to mask, for this package's tests only
// (export_test.go).
var testSockets []string

// DaemonSockets returns the daemon sockets a confined command gets masked
// (those that exist then), for explain and the docs.
func DaemonSockets() []string { return daemonSockets() }
