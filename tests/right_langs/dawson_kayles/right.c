/* dawson_kayles (octal 0.07): a move on a heap of n leaves heaps a and b with a + b = n - 2, so
   g(n) = mex{ g(a) ^ g(n-2-a) } (Sprague-Grundy, computed for every size to 1000). The player to
   move wins iff the xor X of the heaps' values is non-zero; a winning move turns some heap h into
   a, b with g(a) ^ g(b) = g(h) ^ X, which exists for a heap where g(h) ^ X < g(h). */
#include <stdio.h>
#include <string.h>

#define MAXN 1000

int main(void) {
    static int g[MAXN + 1], heap[105];
    int seen[1100], m, i, n, a, x = 0;
    for (n = 0; n <= MAXN; n++) {
        memset(seen, 0, sizeof seen);
        for (a = 0; n >= 2 && a <= (n - 2) / 2; a++) seen[g[a] ^ g[n - 2 - a]] = 1;
        g[n] = 0;
        while (seen[g[n]]) g[n]++;
    }
    if (scanf("%d", &m) != 1) return 1;
    for (i = 0; i < m; i++) {
        if (scanf("%d", &heap[i]) != 1) return 1;
        x ^= g[heap[i]];
    }
    if (x == 0) {
        puts("Second");
        return 0;
    }
    for (i = 0; i < m; i++) {
        int h = heap[i], t = g[h] ^ x;
        if (t >= g[h] || h < 2) continue;
        for (a = 0; a <= (h - 2) / 2; a++) {
            if ((g[a] ^ g[h - 2 - a]) == t) {
                printf("First\n%d %d %d\n", i + 1, a, h - 2 - a);
                return 0;
            }
        }
    }
    return 1; /* unreachable: a non-zero xor always has a winning move */
}
