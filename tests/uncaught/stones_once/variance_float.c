/* stones_once, wrong: a shortcut for every pile the same size (the xor is then the pile's value
   when n is odd, 0 when n is even), taken when the piles' variance, computed in float, is 0.
   The sums are exact integers; the mean and the variance are floats. A float keeps 24 bits: with
   some ten thousand piles of about 55 stones, two piles one short and one over the rest (54 and 56
   among 55s: the sum unchanged, the squares 2 more) leave a variance the float rounds to 0, and
   the program answers as if every pile were the same. That is wrong whenever their values differ
   from the rest's (54 stones are worth 9, 55 and 56 are worth 10) and n is even.
   No comparison of the program's holds a number of the input (the guided phase has no operand
   to write back), and no family, exhaustive space or random draw makes ten thousand piles this
   close to equal.
   smallest of that shape: 11,096 piles, one of 54, one of 56, the rest 55 (see tests/uncaught/README.md) */
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
    if (variance == 0.0f) {
        x = n % 2 ? value[pile[0]] : 0;  /* every pile the same, the variance says */
    } else {
        for (int i = 0; i < n; i++) x ^= value[pile[i]];
    }
    puts(x == 0 ? "YES" : "NO");
    return 0;
}
