#!/usr/bin/env python3
"""Reference values for the emulator's cuRAND device API (kernels/program/shim/curand_kernel.h),
worked out here apart from it: XORWOW (Marsaglia's xorshift of five words plus a Weyl sequence,
cuRAND's seeding) with its skip-ahead as powers of the step's GF(2) matrix, each column a 160-bit
Python integer, and Philox4x32-10 (Salmon et al., SC'11) with cuRAND's counter layout.
CoursePrograms.CurandGivesTheReferenceSequences (tests/kernels/program_curand_test.cpp) holds
what this prints. Usage: scripts/curand_reference.py"""

M32 = 0xFFFFFFFF


def xorwow_seed(seed):
    t0 = (1099087573 * ((seed & M32) ^ 0xAAD26B49)) & M32
    t1 = (2591861531 * ((seed >> 32) ^ 0xF7DCEFDD)) & M32
    d = (6615241 + t1 + t0) & M32
    v = [(123456789 + t0) & M32, 362436069 ^ t0, (521288629 + t1) & M32, 88675123 ^ t1,
         (5783321 + t0) & M32]
    return d, v


def step(v):
    t = v[0] ^ (v[0] >> 2)
    return v[1:] + [((v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))) & M32]


def pack(v):
    return sum(w << (32 * i) for i, w in enumerate(v))


def unpack(x):
    return [(x >> (32 * i)) & M32 for i in range(5)]


def apply(cols, x):
    r = 0
    j = 0
    while x:
        if x & 1:
            r ^= cols[j]
        x >>= 1
        j += 1
    return r


def powers(n):
    """T^(2^k) for k < n, each a list of 160 columns."""
    t = [pack(step(unpack(1 << j))) for j in range(160)]
    out = [t]
    for _ in range(1, n):
        m = out[-1]
        out.append([apply(m, c) for c in m])
    return out


POW = powers(64 + 67)


def skip(v, n, shift):
    x = pack(v)
    k = 0
    while n:
        if n & 1:
            x = apply(POW[k + shift], x)
        n >>= 1
        k += 1
    return unpack(x)


def xorwow_init(seed, subsequence, offset):
    d, v = xorwow_seed(seed)
    v = skip(v, subsequence, 67)
    v = skip(v, offset, 0)
    d = (d + 362437 * offset) & M32
    return [d, v]


def xorwow_next(s):
    s[1] = step(s[1])
    s[0] = (s[0] + 362437) & M32
    return (s[1][4] + s[0]) & M32


def philox10(c, k):
    c = list(c)
    k = list(k)
    for r in range(10):
        p0 = 0xD2511F53 * c[0]
        p1 = 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k[0]) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k[1]) & M32,
             p0 & M32]
        if r < 9:
            k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return c


def philox_outputs(seed, subsequence, offset, count):
    """curand() of a state made by curand_init: output i is word (offset + i) % 4 of the counter
    (subsequence << 64) + (offset + i) // 4."""
    key = [seed & M32, (seed >> 32) & M32]
    out = []
    for i in range(count):
        n = (subsequence << 64) + (offset + i) // 4
        ctr = [(n >> (32 * w)) & M32 for w in range(4)]
        out.append(philox10(ctr, key)[(offset + i) % 4])
    return out


def main():
    for seed, sub, off in [(0, 0, 0), (1234, 0, 0), (1234, 1, 0), (1234, 1000, 5),
                           (42, (1 << 40) + 3, (1 << 50) + 7)]:
        s = xorwow_init(seed, sub, off)
        print("xorwow", seed, sub, off, " ".join(str(xorwow_next(s)) for _ in range(4)))
    for seed, sub, off in [(0, 0, 0), (1234, 0, 0), (1234, 7, 3), (42, (1 << 40) + 3, 9)]:
        print("philox", seed, sub, off, " ".join(str(x) for x in philox_outputs(seed, sub, off, 6)))


if __name__ == "__main__":
    main()
