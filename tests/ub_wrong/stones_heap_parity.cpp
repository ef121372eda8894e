/* stones_once, right answers resting on undefined behaviour: heap memory read before it is set.
 * ub: uninitialised heap read, line 25 (`count[value[s]]++`: `new int[11]` is never set; the
 * parity test on line 29 uses it). A fresh heap hands out zero bytes, so the judge's build counts
 * from 0 and answers right: CERTIFIED. ASan and UBSan do not see uninitialised reads; the
 * auto-var-init builds fill the stack only, and glibc's MALLOC_PERTURB_=165 fills what malloc
 * returns with 0x5A bytes, an even int (0x5A5A5A5A): every parity stays right. A fill of 0xA5
 * bytes (odd) flips every value's parity: two piles of one value answer NO where YES is right.
 * smallest: two piles (size 2); one pile answers right either way (the parities of 1..10 xor to 11,
 * never a value). used at line 29, made at line 21 (valgrind on an -O0 -g build).
 */
#include <cstdio>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    int *count = new int[11];  /* never set: the piles of each value, counted from whatever is there */
    for (int i = 0; i < n; i++) {
        int s;
        if (std::scanf("%d", &s) != 1) return 1;
        count[value[s]]++;
    }
    int x = 0;
    for (int v = 1; v <= 10; v++)
        if (count[v] % 2) x ^= v;
    std::puts(x == 0 ? "YES" : "NO");
    delete[] count;
    return 0;
}
