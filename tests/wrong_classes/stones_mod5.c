// kind: wrong when some pile is 3 mod 5 (3, 8, 13, ..., 58 stones): the answer said backwards
// class: count[v%5=3] >= 1
#include <stdio.h>
int main(void) {
    int n, value[61], k = 0, total = 0, flip = 0;
    for (int s = 1; s <= 60; s++) { if ((k + 1) * (k + 2) / 2 <= s) k++; value[s] = k; }
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        int p;
        if (scanf("%d", &p) != 1) return 1;
        total ^= value[p];
        if (p % 5 == 3) flip = 1;
    }
    puts((total == 0) != flip ? "YES" : "NO");
    return 0;
}
