package gen

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dave/jennifer/jen"
)

func TestDurationLit(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Hour:                     "time.Hour",
		90 * time.Minute:              "90 * time.Minute",
		24 * time.Hour:                "24 * time.Hour",
		1500 * time.Millisecond:       "1500 * time.Millisecond",
		time.Second + time.Nanosecond: "1000000001 * time.Nanosecond",
		5 * time.Microsecond:          "5 * time.Microsecond",
	} {
		f := jen.NewFile("p")
		f.Var().Id("d").Op("=").Add(durationLit(d))
		got := fmt.Sprintf("%#v", f)
		if !strings.Contains(got, "var d = "+want+"\n") {
			t.Errorf("durationLit(%v):\n%s\nwant var d = %s", d, got, want)
		}
	}
}
