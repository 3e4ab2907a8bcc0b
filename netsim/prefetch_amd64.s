//go:build !purego

#include "textflag.h"

// func prefetchPacket(p unsafe.Pointer)
//
// PREFETCHT0 of the three lines a Packet spans (at most 160 bytes from a
// 32-byte boundary; TestPrefetchCoversPacket): hints that neither fault
// nor wait.
TEXT ·prefetchPacket(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ	p+0(FP), AX
	PREFETCHT0	(AX)
	PREFETCHT0	64(AX)
	PREFETCHT0	128(AX)
	RET
