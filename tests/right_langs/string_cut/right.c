/* string_cut: position i (1 < i < n) is cuttable iff s[i-1] == s[i+1]; a cut only ends the cuttable
 * run it lies in, so the game is a sum of runs, and cutting the k-th of L positions leaves runs of
 * max(0, k-2) and max(0, L-k-1) (Dawson's chess). Grundy table by the O(n^2) mex recurrence; the
 * first player wins iff the xor of the runs' values is non-zero, and the smallest winning cut is the
 * first cut, in position order, that brings the xor to zero. */
#include <stdio.h>
#include <string.h>

#define MAXN 5005

static char s[MAXN + 2];
static int g[MAXN];
static int run_start[MAXN], run_len[MAXN];

static int after_cut(int len, int k) {
    int a = k - 2 > 0 ? k - 2 : 0, b = len - k - 1 > 0 ? len - k - 1 : 0;
    return g[a] ^ g[b];
}

int main(void) {
    static char seen[MAXN];
    int n, i, len, k, runs = 0, total = 0;
    if (scanf("%5004s", s) != 1) return 1;
    n = (int)strlen(s);
    g[0] = 0;
    for (len = 1; len <= n; len++) {
        memset(seen, 0, sizeof seen);
        for (k = 1; k <= (len + 1) / 2; k++) {
            int v = after_cut(len, k);
            if (v < MAXN) seen[v] = 1;
        }
        for (k = 0; seen[k]; k++) {}
        g[len] = k;
    }
    /* 1-based position i is s[i-1] (0-based); cuttable iff s[i-2] == s[i] */
    for (i = 2; i < n; i++) {
        if (s[i - 2] == s[i]) {
            if (i == 2 || s[i - 3] != s[i - 1]) {
                run_start[runs] = i;
                run_len[runs++] = 0;
            }
            run_len[runs - 1]++;
        }
    }
    for (i = 0; i < runs; i++) total ^= g[run_len[i]];
    if (total == 0) {
        puts("Second");
        return 0;
    }
    for (i = 0; i < runs; i++) {
        int rest = total ^ g[run_len[i]];
        for (k = 1; k <= run_len[i]; k++) {
            if (after_cut(run_len[i], k) == rest) {
                printf("First\n%d\n", run_start[i] + k - 1);
                return 0;
            }
        }
    }
    return 1; /* unreachable: a non-zero xor always has a move to zero */
}
