package validate

import "sync"

// MaxPatternLen bounds a slot's pattern, in bytes (613 beyond): a compiled
// pattern costs memory in proportion, and a set of allowed values that long
// is an enum.
const MaxPatternLen = 4096

// maxCached bounds each cache of answers about patterns and binaries:
// descriptors are validated again on every reload, mostly with the same
// few, but a tools directory being edited under --watch brings new ones for
// ever.
const maxCached = 256

// boundedCache is a map from a pattern (or binary) to an answer that forgets everything
// when it would hold more than maxCached entries.
type boundedCache[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

func (c *boundedCache[V]) load(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

func (c *boundedCache[V]) store(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCached {
		c.m = make(map[string]V)
	}
	c.m[key] = v
}

// len returns how many entries the cache holds.
func (c *boundedCache[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
