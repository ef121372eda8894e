/* stones_once, wrong: a shortcut for every pile the same size (the xor is then the pile's value
   when n is odd, 0 when n is even), taken when the piles' variance, computed in float, is 0.
   smallest: 129277 stones (size 129277): 2,393 piles of 54 and one of 55, by a scan of every
   input below 140,000 stones in the program's own float arithmetic
   (tests/scans/variance_float_smallest.c; tests/test_guided.py runs it).
   The sums are exact integers; the mean and the variance are floats. A float keeps 24 bits: with
   some thousands of piles at one level and one a step off (2,393 of 54 and one of 55; or 54 and
   56 among 55s, the sum unchanged) the float variance rounds to 0, and the program answers as if
   every pile were the same. That is wrong whenever the odd piles' values differ from the rest's
   (54 stones are worth 9, 55 and 56 are worth 10).
   No comparison of the program's holds a number of the input (input to state has no operand to
   write back), the distance of the variance from 0 in ulps climbs toward small levels, where the
   fault is not, and no family, exhaustive space or random draw makes thousands of piles this
   close to equal. Caught by the guided phase's near-constant inputs (a float compared), brought
   down by the search below the fault (the near-constant families swept, fewest counts first) and
   the shrinker's near-constant steps (the common pile's count searched one by one; exchanged with
   the odd one). The failing counts follow no order (54s with one 55 fail at 2,394 piles and
   2,460, not between). */
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
