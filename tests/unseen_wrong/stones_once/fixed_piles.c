/* kind: the piles are stored in a fixed array sized from the pile size bound times 1000 (60000), not from n (10**6) */
/* expect: RE */
#include <stdio.h>

static int piles[60000];
static int value[61];

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    for (int i = 0; i < n; i++) scanf("%d", &piles[i]);
    int k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    int x = 0;
    for (int i = 0; i < n; i++) x ^= value[piles[i]];
    puts(x == 0 ? "YES" : "NO");
    return 0;
}
