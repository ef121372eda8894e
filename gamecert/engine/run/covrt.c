/* gamecert's coverage runtime for the guided phase (gamecert/engine/run/instrument.py).

   Linked into a second build of a C or C++ candidate compiled with GCC's
   -fsanitize-coverage=trace-pc,trace-cmp, or of a Rust candidate compiled with LLVM's sancov
   pass and the same callbacks (instrument_rust.py; this file itself is compiled without it,
   for Rust with -DGC_COVRT_OWN). It records,
   for one run of the program:
     - every basic block reached (the return address of its __sanitizer_cov_trace_pc call), in a
       small open-addressing set;
     - edges between consecutive blocks with a hit count, AFL-style: edge (prev >> 1) ^ pc, the
       count bucketed 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+;
     - operands of comparisons (integer, float and double, switch cases, and the strings given to
       strcmp, strncmp, memcmp and strstr), a few distinct pairs per comparison site;
     - per comparison site, the closest its operands came without being equal (libFuzzer's value
       profile, as a number): |a - b| of integers (signed at their width), for floats and doubles
       the distance in ulps (of the double: the float converted exactly).
   At exit (a destructor) it writes one line to stderr:
     @@gcov pcs=HEX,HEX,... edges=HEX,... cmps=K:A:B,... strs=HEXBYTES:HEXBYTES,... near=PC:DIST,...
   which the harness reads from the run's stderr tail. The line is capped in length; what a
   program writes there is steering, never a verdict.
*/
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>

#define PCS 4096
#define EDGES 65536
#define SITES 512
#define PER_SITE 4
#define STRS 64
#define STR_MAX 40
#define OUT_MAX 12000

static uintptr_t pcs[PCS];
static unsigned npcs;
static uint16_t edges[EDGES];
static uintptr_t prev;

struct site { uintptr_t pc; unsigned n; char kind[PER_SITE]; uint64_t a[PER_SITE], b[PER_SITE]; uint64_t near; };
static struct site sites[SITES];
static unsigned nsites;
static char strs[STRS][2][STR_MAX + 1];
static unsigned char strlens[STRS][2];
static unsigned nstrs;

#ifdef GC_COVRT_OWN
/* the Rust route only (instrument_rust.py): the blocks and the comparison sites of the program's
   own source. The build writes their addresses (sorted) into these tables of the linked binary,
   each found by its two marker words; a block or a comparison elsewhere (the standard library's
   code inlined into the program's functions: number parsing, formatting, a vector's growth) is
   not recorded, as a C program's library is not instrumented. A table left empty (count 0)
   records everything. */
#define OWN_MAX 8192
__attribute__((used)) volatile uint64_t gc_covrt_own_cmps[OWN_MAX + 3] = {
    0x6763636f7672746fULL, 0x6f776e2d636d7073ULL, 0};
__attribute__((used)) volatile uint64_t gc_covrt_own_blocks[OWN_MAX + 3] = {
    0x6763636f7672746fULL, 0x6f776e2d626c6b73ULL, 0};
static int in_table(volatile uint64_t *t, uintptr_t pc) {
    uint64_t n = t[2];
    if (n == 0) return 1;
    if (n > OWN_MAX) n = OWN_MAX;
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2, v = t[3 + mid];
        if (v == pc) return 1;
        if (v < pc) lo = mid + 1; else hi = mid;
    }
    return 0;
}
#define own(pc) in_table(gc_covrt_own_cmps, pc)
#define own_block(pc) in_table(gc_covrt_own_blocks, pc)
#else
#define own(pc) 1
#define own_block(pc) 1
#endif

void __sanitizer_cov_trace_pc(void) {
    uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    if (!own_block(pc)) return;
    uintptr_t e = ((prev >> 1) ^ pc) * 0x9E3779B1u;
    uint16_t *c = &edges[(e >> 7) & (EDGES - 1)];
    if (*c != 0xffff) (*c)++;
    prev = pc;
    unsigned h = (unsigned)((pc * 0x9E3779B97F4A7C15ull) >> 52) & (PCS - 1);
    for (unsigned i = 0; i < 16; i++) {
        unsigned k = (h + i) & (PCS - 1);
        if (pcs[k] == pc) return;
        if (pcs[k] == 0) { if (npcs < PCS * 3 / 4) { pcs[k] = pc; npcs++; } return; }
    }
}

/* a double's bits as an integer in the order of the doubles (-0 and +0 next to each other) */
static uint64_t ordered(uint64_t u) { return u >> 63 ? ~u : u | (1ull << 63); }

static uint64_t distance(char kind, uint64_t a, uint64_t b) {
    int64_t x, y;
    switch (kind) {
    case '1': x = (int8_t)a; y = (int8_t)b; break;
    case '2': x = (int16_t)a; y = (int16_t)b; break;
    case '4': x = (int32_t)a; y = (int32_t)b; break;
    case 'f': case 'd': a = ordered(a); b = ordered(b); return a > b ? a - b : b - a;
    default: return a > b ? a - b : b - a;
    }
    return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}


static void record(uintptr_t pc, char kind, uint64_t a, uint64_t b) {
    if (a == b) return;
    unsigned h = (unsigned)((pc * 0x9E3779B97F4A7C15ull) >> 55) & (SITES - 1);
    uint64_t d = distance(kind, a, b);
    for (unsigned i = 0; i < 8; i++) {
        struct site *s = &sites[(h + i) & (SITES - 1)];
        if (s->pc == pc) {
            if (d < s->near) s->near = d;
            for (unsigned j = 0; j < s->n; j++)
                if (s->a[j] == a && s->b[j] == b) return;
            if (s->n < PER_SITE) { s->kind[s->n] = kind; s->a[s->n] = a; s->b[s->n] = b; s->n++; }
            return;
        }
        if (s->pc == 0) {
            if (nsites >= SITES * 3 / 4) return;
            s->pc = pc; nsites++;
            s->kind[0] = kind; s->a[0] = a; s->b[0] = b; s->n = 1; s->near = d;
            return;
        }
    }
}

#define RA ((uintptr_t)__builtin_return_address(0))
#define OWN_RECORD(kind, a, b) do { uintptr_t pc_ = RA; if (own(pc_)) record(pc_, kind, a, b); } while (0)
void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) { OWN_RECORD('1', a, b); }
void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b) { OWN_RECORD('2', a, b); }
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { OWN_RECORD('4', a, b); }
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b) { OWN_RECORD('8', a, b); }
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) { OWN_RECORD('1', a, b); }
void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b) { OWN_RECORD('2', a, b); }
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { OWN_RECORD('4', a, b); }
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b) { OWN_RECORD('8', a, b); }
void __sanitizer_cov_trace_cmpf(float a, float b) {
    union { double d; uint64_t u; } x = {a}, y = {b};
    OWN_RECORD('f', x.u, y.u);
}
void __sanitizer_cov_trace_cmpd(double a, double b) {
    union { double d; uint64_t u; } x = {a}, y = {b};
    OWN_RECORD('d', x.u, y.u);
}
void __sanitizer_cov_trace_switch(uint64_t val, uint64_t *cases) {
    uintptr_t pc = RA;
    if (!own(pc)) return;
    for (uint64_t i = 0; i < cases[0] && i < 64; i++) record(pc + i, '8', val, cases[2 + i]);
}
void __sanitizer_cov_trace_div4(uint32_t v) { (void)v; }
void __sanitizer_cov_trace_div8(uint64_t v) { (void)v; }
void __sanitizer_cov_trace_gep(uintptr_t i) { (void)i; }

/* equal bytes, without the program's (interposed) memcmp: the runtime never calls the string
   functions it defines */
static int same(const void *x, const void *y, size_t n) {
    const unsigned char *p = x, *q = y;
    for (size_t i = 0; i < n; i++) if (p[i] != q[i]) return 0;
    return 1;
}

static void record_strs(const void *x, size_t nx, const void *y, size_t ny) {
    if (nstrs >= STRS || !x || !y) return;
    if (nx > STR_MAX) nx = STR_MAX;
    if (ny > STR_MAX) ny = STR_MAX;
    if (nx == ny && same(x, y, nx)) return;
    for (unsigned i = 0; i < nstrs; i++)
        if (strlens[i][0] == nx && strlens[i][1] == ny && same(strs[i][0], x, nx) && same(strs[i][1], y, ny))
            return;
    memcpy(strs[nstrs][0], x, nx); memcpy(strs[nstrs][1], y, ny);
    strlens[nstrs][0] = (unsigned char)nx; strlens[nstrs][1] = (unsigned char)ny;
    nstrs++;
}

static size_t bounded_len(const char *s, size_t cap) { size_t n = 0; while (n < cap && s[n]) n++; return n; }

/* the string functions, recorded and then done here (the instrumented build is compiled with
   -fno-builtin for them, so the program's calls come here) */
int strcmp(const char *a, const char *b) {
    record_strs(a, bounded_len(a, STR_MAX), b, bounded_len(b, STR_MAX));
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p && *p == *q) { p++; q++; }
    return (int)*p - (int)*q;
}
int strncmp(const char *a, const char *b, size_t n) {
    record_strs(a, bounded_len(a, n < STR_MAX ? n : STR_MAX), b, bounded_len(b, n < STR_MAX ? n : STR_MAX));
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    for (; n; n--, p++, q++) { if (*p != *q) return (int)*p - (int)*q; if (!*p) return 0; }
    return 0;
}
int memcmp(const void *a, const void *b, size_t n) {
    record_strs(a, n, b, n);
    const unsigned char *p = a, *q = b;
    for (; n; n--, p++, q++) if (*p != *q) return (int)*p - (int)*q;
    return 0;
}
char *strstr(const char *h, const char *n) {
    size_t ln = bounded_len(n, (size_t)-1);
    record_strs(n, ln, h, bounded_len(h, STR_MAX));
    if (!ln) return (char *)h;
    for (; *h; h++) {
        size_t i = 0;
        while (i < ln && h[i] == n[i]) i++;
        if (i == ln) return (char *)h;
    }
    return 0;
}

static char out[OUT_MAX + 64];
static size_t used;

static void put(const char *s, size_t n) {
    if (used + n > OUT_MAX) return;
    memcpy(out + used, s, n); used += n;
}
static void hex(uint64_t v) {
    char b[17]; int i = 16; b[i] = 0;
    do { b[--i] = "0123456789abcdef"[v & 15]; v >>= 4; } while (v);
    put(b + i, 16 - i);
}
static void hexbytes(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char b[2] = {"0123456789abcdef"[(unsigned char)s[i] >> 4], "0123456789abcdef"[s[i] & 15]};
        put(b, 2);
    }
}
static unsigned bucket(unsigned c) {
    return c <= 3 ? c : c < 8 ? 4 : c < 16 ? 5 : c < 32 ? 6 : c < 128 ? 7 : 8;
}

__attribute__((destructor(101))) static void gcov_dump(void) {
    put("\n@@gcov cmps=", 13);
    int first = 1;
    for (unsigned i = 0; i < SITES; i++)
        for (unsigned j = 0; j < sites[i].n; j++) {
            if (used > OUT_MAX / 3) break;
            if (!first) put(",", 1);
            first = 0;
            put(&sites[i].kind[j], 1); put(":", 1); hex(sites[i].a[j]); put(":", 1); hex(sites[i].b[j]);
        }
    put(" strs=", 6);
    for (unsigned i = 0; i < nstrs; i++) {
        if (i) put(",", 1);
        hexbytes(strs[i][0], strlens[i][0]); put(":", 1); hexbytes(strs[i][1], strlens[i][1]);
    }
    put(" near=", 6);
    first = 1;
    for (unsigned i = 0; i < SITES; i++)
        if (sites[i].pc) {
            if (used > OUT_MAX / 2) break;
            if (!first) put(",", 1);
            first = 0;
            hex(sites[i].pc); put(":", 1); hex(sites[i].near);
        }
    put(" pcs=", 5);
    first = 1;
    for (unsigned i = 0; i < PCS; i++)
        if (pcs[i]) { if (!first) put(",", 1); first = 0; hex(pcs[i]); }
    put(" edges=", 7);
    first = 1;
    for (unsigned i = 0; i < EDGES; i++)
        if (edges[i]) { if (!first) put(",", 1); first = 0; hex(((uint64_t)i << 4) | bucket(edges[i])); }
    put("\n", 1);
    size_t done = 0;
    while (done < used) {
        ssize_t w = write(2, out + done, used - done);
        if (w <= 0) break;
        done += (size_t)w;
    }
}
