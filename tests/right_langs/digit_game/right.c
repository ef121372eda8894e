/* digit_game: each player marks the parity they do not want left, so the last digit lies in
 * Raze's positions (1, 3, ...) when n is odd and in Breach's (2, 4, ...) when n is even; the
 * owner of that class keeps a digit of their parity iff the class holds one. So: n odd -> Raze
 * wins iff an odd position holds an odd digit; n even -> Breach wins iff an even position holds
 * an even digit. */
#include <stdio.h>

static char digits[1100];

int main(void) {
    int t, n, i, found;
    if (scanf("%d", &t) != 1) return 1;
    while (t-- > 0) {
        if (scanf("%d %1050s", &n, digits) != 2) return 1;
        found = 0;
        if (n % 2) {
            for (i = 0; i < n; i += 2)
                if ((digits[i] - '0') % 2 == 1) found = 1;
            puts(found ? "1" : "2");
        } else {
            for (i = 1; i < n; i += 2)
                if ((digits[i] - '0') % 2 == 0) found = 1;
            puts(found ? "2" : "1");
        }
    }
    return 0;
}
