package hostentry_test

import (
	"fmt"

	"github.com/nanogpt/toolgen/internal/hostentry"
)

func ExampleParse() {
	for _, entry := range []string{"API.GitHub.com.:443", "*.example.org:443", "[::ffff:10.0.0.5]:8443", "api.github.com", "0x7f.1:80"} {
		h, err := hostentry.Parse(entry)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(h)
	}
	// Output:
	// api.github.com:443
	// *.example.org:443
	// 10.0.0.5:8443
	// network host api.github.com: has no port; write HOST:PORT, e.g. api.github.com:443
	// network host 0x7f.1:80: ends in the number 1, which resolvers read as an IPv4 address; write an address as four decimal numbers (127.0.0.1)
}

func ExampleOfURL() {
	fmt.Println(hostentry.OfURL("https://api.github.com/repos/golang/go"))
	fmt.Println(hostentry.OfURL("http://localhost:8080/health"))
	// Output:
	// api.github.com:443
	// localhost:8080
}
