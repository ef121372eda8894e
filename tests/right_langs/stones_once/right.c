/* stones_once: a pile of s stones is worth the largest k with k(k+1)/2 <= s; Jon (second) wins iff the xor is 0. */
#include <stdio.h>

int main(void) {
    int value[61], k = 0, n, s, total = 0;
    value[0] = 0;
    for (s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    if (scanf("%d", &n) != 1) return 1;
    while (n-- > 0 && scanf("%d", &s) == 1) total ^= value[s];
    puts(total == 0 ? "YES" : "NO");
    return 0;
}
