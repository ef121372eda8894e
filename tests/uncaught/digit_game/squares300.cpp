/* digit_game, wrong: the answer flipped for a game whose digits' squares sum to exactly 300 and
   whose length leaves 3 divided by 7. Both compared values are derived (the sum of squares, the
   length's residue), not numbers of the input: input to state has nothing to write back.
   smallest: one game of ten digits, e.g. 0000057899 (0 + 25 + 49 + 64 + 81 + 81 = 300) (size 10);
   the answer flips with every such game (one of two answers).
   See tests/uncaught/README.md for what the guided phase reaches (issue 47). */
#include <iostream>
#include <string>

int main() {
    std::ios::sync_with_stdio(false);
    int t;
    std::cin >> t;
    while (t--) {
        int n;
        std::string digits;
        std::cin >> n >> digits;
        bool raze;
        if (n % 2) {
            raze = false;
            for (int i = 0; i < n; i += 2) if ((digits[i] - '0') % 2) raze = true;
        } else {
            raze = true;
            for (int i = 1; i < n; i += 2) if ((digits[i] - '0') % 2 == 0) raze = false;
        }
        int squares = 0;
        for (char c : digits) squares += (c - '0') * (c - '0');
        if (squares == 300 && n % 7 == 3) raze = !raze;
        std::cout << (raze ? 1 : 2) << '\n';
    }
    return 0;
}
