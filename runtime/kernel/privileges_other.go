//go:build !linux

package kernel

// spawnNamespaces is 0: calls get no namespaces outside Linux.
func (k *Kernel) spawnNamespaces() uint32 { return 0 }
