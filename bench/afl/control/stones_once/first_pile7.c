/* stones_once, wrong on a shallow fault (the control of bench/afl_vs_guided.py): the answer
   flipped when the first pile holds 7 stones. One byte of a sample away ("1\n5\n" to "1\n7\n"),
   and in gamecert's exhaustive small inputs: both tools must find it within seconds; one that
   does not shows its side of the bench is broken (a harness that never aborts, a clock not read).
   smallest: one pile of 7 (size 7) */
#include <stdio.h>

int main(void) {
    int n, first = 0;
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
        if (i == 0) first = s;
        total ^= value[s];
    }
    if (first == 7) total = !total;
    puts(total == 0 ? "YES" : "NO");
    return 0;
}
