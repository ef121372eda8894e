/* stones_once, wrong: the answer flipped when the piles' squares sum to exactly 2026 and the pile
   count leaves 3 divided by 5. Both compared values are derived (the sum of squares, the count's
   residue), not numbers of the input: input to state has nothing to write back, and the
   difference put back meets a plain sum, not a sum of squares with a count's residue kept.
   Issue 47: over the kept inputs, the operand compared with 2026 is every time the piles' sum of
   squares, the one compared with 3 the count's residue mod 5 (GCC's trace-cmp shows neither
   function, nor the modulus); z3 writes piles of a count that meets both, and below a fault,
   piles of fewer stones. The least stones over counts 3, 8, 13, ... with squares summing to
   2026 (every pile 1..60): three piles, 3, 9 and 44, 56 stones (a search of every multiset).
   smallest: 56 stones (size 56) */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    long long squares = 0;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int p;
        if (scanf("%d", &p) != 1) return 1;
        squares += (long long)p * p;
        x ^= value[p];
    }
    if (squares == 2026 && n % 5 == 3) x = x ? 0 : 1;
    puts(x == 0 ? "YES" : "NO");
    return 0;
}
