// digit_game, right answers resting on undefined behaviour: a shift past the width.
// ub: shift exponent of 64 or more, line 22 (`1ULL << i` with i up to 999): the program keeps a
// bit per position holding a digit of the parity that decides. x86's shift takes its count
// modulo 64, so a bit always lands somewhere and `mask != 0` is still right: the plain build is
// CERTIFIED. UBSan stops it at the first such digit at position 65 or later (the largest inputs,
// n = 1000), and the shrinker brings the game down to the shortest one that shifts that far.
#include <cstdio>

int main() {
    int t;
    if (std::scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (std::scanf("%d", &n) != 1) return 1;
        int c = std::getchar();
        while (c == ' ' || c == '\n' || c == '\r') c = std::getchar();
        int parity = n % 2;  // Raze (odd positions) picks last when n is odd, Breach when even
        unsigned long long mask = 0;
        for (int i = 0; i < n; i++, c = std::getchar()) {
            int position = i + 1;
            if (position % 2 != (parity ? 1 : 0)) continue;
            if ((c - '0') % 2 == parity) mask |= 1ULL << i;
        }
        std::printf("%d\n", mask != 0 ? (parity ? 1 : 2) : (parity ? 2 : 1));
    }
    return 0;
}
