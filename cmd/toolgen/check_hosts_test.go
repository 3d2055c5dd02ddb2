package main

import (
	"slices"
	"testing"
)

func TestTemplateHosts(t *testing.T) {
	cases := map[string][]string{
		"curl -sS https://api.github.com/repos/{repo}/issues/{n}":           {"api.github.com:443"},
		"curl HTTPS://API.GitHub.com":                                       {"api.github.com:443"},
		"curl http://example.org:8080/x https://example.org/y":              {"example.org:8080", "example.org:443"},
		"curl --url=https://a.example/ --referer=https://a.example/z":       {"a.example:443"},
		"curl https://{host}/x":                                             nil,
		"curl https://api.{domain}.com/x":                                   nil,
		"curl https://{host}.example.org/ https://fixed.example/":           {"fixed.example:443"},
		"wget ftp://ftp.example.org/ git://x.example/":                      nil,
		"curl https://user@api.github.com/":                                 nil,
		"curl https://a.example/?next=http://b.example/":                    {"a.example:443", "b.example:80"},
		"curl https://127.0.0.1:8443/ http://[::1]:9/":                      {"127.0.0.1:8443", "[::1]:9"},
		"grep -rn {pattern} {path}":                                         nil,
		"curl xhttps://a.example/":                                          {"a.example:443"},
		"curl https://0x7f.1/ https://bücher.example/ https:// https://:80": nil,
	}
	for command, want := range cases {
		if got := templateHosts(command); !slices.Equal(got, want) {
			t.Errorf("templateHosts(%q) = %q, want %q", command, got, want)
		}
	}
}
