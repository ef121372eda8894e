// stones_once, wrong: inputs of up to 4,321 piles are kept in a table of the program's own, whose
// loop stops one entry short (i < TABLE - 1): at exactly 4,321 piles the last pile is left out of
// the xor, and every pile has a non-zero value, so the answer flips. Larger inputs are streamed
// (right). No designed family holds 4,321 piles (tests/uncaught/stones_once/n4321.py is the same
// count, certified by the families alone); the guided phase reads n <= 4321 and sets the count.
// smallest: 4321 piles (size 4321)
#include <cstdio>

static const int TABLE = 4321;
static int piles[TABLE];

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    int total = 0;
    if (n <= TABLE) {
        for (int i = 0; i < n; i++)
            if (std::scanf("%d", &piles[i]) != 1) return 1;
        for (int i = 0; i < n && i < TABLE - 1; i++) total ^= value[piles[i]];
    } else {
        for (int i = 0; i < n; i++) {
            int s;
            if (std::scanf("%d", &s) != 1) return 1;
            total ^= value[s];
        }
    }
    std::puts(total == 0 ? "YES" : "NO");
    return 0;
}
