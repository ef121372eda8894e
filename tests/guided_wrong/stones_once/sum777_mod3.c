/* stones_once, wrong: the answer flipped when the stones in all number exactly 777 and the pile
   count leaves 1 divided by 3. Both compared values are derived (the sum of the piles, the count's
   residue), not numbers of the input, so input to state has nothing to write back. The difference
   put back (issue 47) reaches it: 777 - sum spread over the piles, then the count changed with the
   stones in all kept. Every failing input holds 777 stones (the game's size): the smallest failing
   input is of size 777, e.g. 13 piles, twelve of 60 and one of 57.
   smallest: 777 stones (size 777) */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    long long sum = 0;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int s;
        if (scanf("%d", &s) != 1) return 1;
        sum += s;
        x ^= value[s];
    }
    if (sum == 777 && n % 3 == 1) x = !x;
    puts(x == 0 ? "YES" : "NO");
    return 0;
}
