//go:build unix

package kernel

import (
	"context"
	"slices"
	"testing"
)

// TestObserversNest: an observer set under another sees the run first, then
// the outer one does, with the same Result; neither hides the other.
func TestObserversNest(t *testing.T) {
	k := newKernel(t)
	var order []string
	var outerExit, innerExit = -1, -1
	ctx := WithObserver(context.Background(), func(res Result, err error) {
		order = append(order, "outer")
		outerExit = res.ExitCode
	})
	ctx = WithObserver(ctx, nil) // a nil observer changes nothing
	ctx = WithObserver(ctx, func(res Result, err error) {
		order = append(order, "inner")
		innerExit = res.ExitCode
	})
	res, err := k.Run(ctx, []string{"sh", "-c", "exit 3"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || outerExit != 3 || innerExit != 3 {
		t.Errorf("exit codes: run %d, outer %d, inner %d; want 3", res.ExitCode, outerExit, innerExit)
	}
	if !slices.Equal(order, []string{"inner", "outer"}) {
		t.Errorf("observers called %v, want [inner outer]", order)
	}
}
