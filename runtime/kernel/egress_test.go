package kernel

import (
	"net"
	"slices"
	"testing"
)

func TestAccessHosts(t *testing.T) {
	k, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	hosts := []string{"api.github.com:443"}
	a := k.WithAccess(Access{Hosts: hosts})
	if a == k || !slices.Equal(a.Access().Hosts, hosts) {
		t.Fatalf("WithAccess(Hosts) = %+v", a.Access())
	}
	if b := a.WithAccess(Access{Hosts: []string{"api.github.com:443"}}); b != a {
		t.Error("WithAccess with equal hosts made a new kernel")
	}
	if b := a.WithAccess(Access{Hosts: []string{"api.github.com:80"}}); b == a {
		t.Error("WithAccess with other hosts returned the same kernel")
	}
	hosts[0] = "evil.example:443"
	got := a.Access()
	got.Hosts[0] = "evil.example:443"
	if a.Access().Hosts[0] != "api.github.com:443" {
		t.Errorf("the kernel's hosts changed through a caller's slice: %v", a.Access().Hosts)
	}
	if k.WithAccess(Access{}) != k {
		t.Error("WithAccess of the zero Access made a new kernel")
	}
}

func TestWithEgress(t *testing.T) {
	called := false
	serve := func(ln net.Listener, hosts []string, refused func(string)) error { called = true; return nil }
	k, err := New(t.TempDir(), WithEgress(serve), WithEgress(nil))
	if err != nil {
		t.Fatal(err)
	}
	if k.Egress() == nil {
		t.Fatal("WithEgress was not kept (or a nil one replaced it)")
	}
	_ = k.Egress()(nil, nil, nil)
	if !called {
		t.Error("Egress returned another function")
	}
	if d := k.WithAccess(Access{Hosts: []string{"a.example:443"}}); d.Egress() == nil {
		t.Error("a kernel derived by WithAccess lost its egress proxy")
	}
	plain, _ := New(t.TempDir())
	if plain.Egress() != nil {
		t.Error("a kernel without WithEgress has one")
	}
}

func TestEgressEnv(t *testing.T) {
	want := []string{"HTTP_PROXY=http://127.0.0.1:3128", "HTTPS_PROXY=http://127.0.0.1:3128", "ALL_PROXY=http://127.0.0.1:3128",
		"http_proxy=http://127.0.0.1:3128", "https_proxy=http://127.0.0.1:3128", "all_proxy=http://127.0.0.1:3128",
		"NO_PROXY=", "no_proxy="}
	if got := EgressEnv("127.0.0.1:3128"); !slices.Equal(got, want) {
		t.Errorf("EgressEnv = %q", got)
	}
}
