/* kind: the digit buffer is sized from t's bound (100 + 1) instead of n's (1000 + 1): a long number is read in pieces */
/* expect: WA */
#include <stdio.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    for (int g = 0; g < t; g++) {
        int n;
        char s[101];
        scanf("%d", &n);
        scanf("%100s", s);
        int raze;
        if (n % 2) {
            raze = 0;
            for (int i = 0; i < n && s[i]; i += 2) if ((s[i] - '0') % 2) raze = 1;
        } else {
            raze = 1;
            for (int i = 1; i < n && s[i]; i += 2) if ((s[i] - '0') % 2 == 0) raze = 0;
        }
        puts(raze ? "1" : "2");
    }
    return 0;
}
