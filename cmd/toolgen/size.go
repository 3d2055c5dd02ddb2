package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes parseSize accepts, lower-cased: IEC binary
// units, SI decimal ones, and the bare letters of ulimit and docker, which
// mean binary units.
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// parseSize reads a byte count such as 512MiB, 1GiB, 1.5G, 200MB or 1048576:
// a non-negative decimal number (a fraction allowed with a unit) and an
// optional unit, KiB/MiB/GiB/TiB (or K/M/G/T) for powers of 1024 and
// KB/MB/GB/TB for powers of 1000, in any case; "none" is 0. Values beyond
// int64 are refused.
func parseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "none" {
		return 0, nil
	}
	num, mult := t, int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	bad := fmt.Errorf("invalid size %q: want a number of bytes with an optional unit, such as 512MiB, 1GiB or 200MB (or none)", s)
	if num == "" || strings.ContainsAny(num, "+-eEnNxX_ ") { // no signs, exponents, inf/nan, hex or separators
		return 0, bad
	}
	if n, err := strconv.ParseInt(num, 10, 64); err == nil {
		if n > math.MaxInt64/mult {
			return 0, fmt.Errorf("size %q is too large", s)
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 1 {
		return 0, bad // a fraction of a byte is no size
	}
	v := f * float64(mult)
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int64(math.Round(v)), nil
}

// sizeFlag is a flag holding a byte count read by parseSize; set tells
// whether it was given, so that an absent flag leaves the default to the
// kernel.
type sizeFlag struct {
	n   int64
	set bool
}

// String returns the size in bytes, or "" when not set.
func (f *sizeFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatInt(f.n, 10)
}

// Set parses s with parseSize.
func (f *sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	f.n, f.set = n, true
	return nil
}
