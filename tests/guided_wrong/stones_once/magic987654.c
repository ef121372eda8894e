/* stones_once, wrong: right but for one pile count of its own, 987,654 piles, where it answers
   the opposite (a value left over from debugging). No designed family holds that count; the
   guided phase reads the comparison n == 987654 and sets the pile count to it.
   smallest: 987654 piles (size 987654) */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
        int s;
        if (scanf("%d", &s) != 1) return 1;
        total ^= value[s];
    }
    if (n == 987654) total = !total;
    puts(total == 0 ? "YES" : "NO");
    return 0;
}
