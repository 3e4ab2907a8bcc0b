package netsim

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream returns a PCG random stream derived from (seed, name). Streams with
// different names are independent, so adding a component never shifts the
// draws of another.
func Stream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(splitmix(seed), splitmix(h.Sum64()^0x9e3779b97f4a7c15)))
}

// Rand returns this Sim's random stream for the named component.
func (s *Sim) Rand(name string) *rand.Rand { return Stream(s.seed, name) }

// splitmix is the SplitMix64 finaliser, used to spread seeds.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Hash64 mixes a and b into a well-spread 64-bit value, for flow hashing.
func Hash64(a, b uint64) uint64 { return splitmix(a ^ splitmix(b)) }
