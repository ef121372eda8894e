/* stones_once, right: the shortcut of tests/guided_wrong/stones_once/variance_float.c (piles all
   the same size: the xor is the pile's value when n is odd, 0 when n is even), taken when the
   float variance is 0 and then only if the integers agree (n times the sum of squares equals the
   sum squared: every pile the same). The float comparison is there, so the guided phase makes
   its near-constant inputs; none of them may fail it (the control of variance_float.c). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    int *pile = malloc(sizeof(int) * (size_t)n);
    long long sum = 0, squares = 0;
    for (int i = 0; i < n; i++) {
        if (scanf("%d", &pile[i]) != 1) return 1;
        sum += pile[i];
        squares += (long long)pile[i] * pile[i];
    }
    float mean = (float)sum / n;
    float variance = (float)squares / n - mean * mean;
    int x = 0;
    if (variance == 0.0f && (long long)n * squares == sum * sum) {
        x = n % 2 ? value[pile[0]] : 0;
    } else {
        for (int i = 0; i < n; i++) x ^= value[pile[i]];
    }
    puts(x == 0 ? "YES" : "NO");
    free(pile);
    return 0;
}
