/* The smallest failing input of tests/guided_wrong/stones_once/variance_float.c, by a scan of every
   input below a size: the size that file's "smallest:" header states (tests/test_guided.py runs
   this scan to check it).

   The program's answer depends on n, the sum S and the sum of squares Q of the piles (and the
   first pile): it takes the shortcut where its float variance, (float)Q / n - mean * mean with
   mean = (float)S / n, is 0. So for each size S (stones in all, the game's size) and each count n
   (S / 60 <= n <= S), each Q whose float quotient equals the float square of the mean (Q / n
   only grows with Q, so those Q are one run of integers) is looked at, where the piles are not
   all equal (n * Q - S^2 > 0; it is the sum over pairs of squared differences, so at least n - 1).
   Then: is there a multiset of n piles of 1..60 stones with that S and Q which the program
   answers wrong? Its piles, taken from the base a = S / n rounded, differ by d_i with
   sum d_i = c = S - n a and sum d_i^2 = t = Q - n a^2 - 2 a c; each |d_i| <= d_i^2, so no such
   multiset unless |c| <= t with c and t of one parity, and the search below tries every
   multiset of deviations (at most t of them). The program answers "every pile the same": the
   first pile's Grundy value if n is odd (never 0), else 0; it is wrong when the xor of the
   piles' Grundy values is 0 and n odd, or is not 0 and n even.

   The float arithmetic is the program's own: this file is built as the judge builds a C
   program (gcc -O2), whose floats on x86-64 are IEEE single precision, one rounding per
   operation (no excess precision, no fused multiply-add without -march).

   Usage: variance_float_smallest LIMIT   prints the first failing input of size below LIMIT
   ("smallest: S n Q a c t": its S, n, Q, base a and deviations), or "none below LIMIT". */
#include <stdio.h>
#include <stdlib.h>

static int value[61];
static int n_g, a_g;

/* deviations from a_g, at most dmax each (descending, nonzero), summing to c with squares
   summing to t, k of them so far with xor xr of their piles' values: whether some completion
   makes an input the program answers wrong */
static int wrong_with(int dmax, long long c, long long t, int k, int xr) {
    if (t == 0) {
        if (c != 0) return 0;
        int x = xr ^ (((n_g - k) & 1) ? value[a_g] : 0);
        return (n_g & 1) ? (x == 0) : (x != 0);
    }
    if (k >= n_g || llabs(c) > t || ((c - t) & 1)) return 0;
    for (int d = dmax; d >= -59; d--) {
        if (d == 0) continue;
        long long dd = (long long)d * d;
        if (dd > t) {
            if (d < 0) break;
            continue;
        }
        int p = a_g + d;
        if (p < 1 || p > 60) continue;
        if (wrong_with(d, c - d, t - dd, k + 1, xr ^ value[p])) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s LIMIT\n", argv[0]);
        return 2;
    }
    long long limit = atoll(argv[1]);
    for (int s = 1, k = 0; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    for (long long S = 2; S < limit; S++) {
        long long nlo = (S + 59) / 60 < 2 ? 2 : (S + 59) / 60;
        for (long long n = nlo; n <= S; n++) {
            float mean = (float)S / (int)n;
            float square = mean * mean;
            for (long long Q = (S * S) / n + 1;; Q++) {
                float quotient = (float)Q / (int)n;
                volatile float variance = quotient - square;
                if (quotient > square) break;
                if (variance != 0.0f || n * Q - S * S < n - 1) continue;
                long long a = (S + n / 2) / n;
                if (a > 60) a = 60;
                long long c = S - n * a, t = Q - n * a * a - 2 * a * c;
                if (t < 0 || llabs(c) > t || ((c - t) & 1)) continue;
                if (t > 400) {  /* never met below 200,000 stones: said, not skipped quietly */
                    printf("unsearched S=%lld n=%lld Q=%lld t=%lld\n", S, n, Q, t);
                    return 3;
                }
                n_g = (int)n;
                a_g = (int)a;
                if (wrong_with(59, c, t, 0, 0)) {
                    printf("smallest: %lld %lld %lld %lld %lld %lld\n", S, n, Q, a, c, t);
                    return 0;
                }
            }
        }
    }
    printf("none below %lld\n", limit);
    return 0;
}
