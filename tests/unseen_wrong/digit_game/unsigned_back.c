/* kind: scans the number from its end with an unsigned index (i = n - 1 - k): at the first digit it wraps below zero, past the buffer */
/* expect: RE */
#include <stdio.h>
#include <string.h>

static char s[1 << 12];

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        unsigned n;
        scanf("%u %4000s", &n, s);
        int raze;
        if (n % 2) {
            raze = 0;
            for (unsigned i = n - 1; i != 0u - 2u; i -= 2) if ((s[i] - '0') % 2) { raze = 1; break; }
        } else {
            raze = 1;
            for (unsigned i = n - 1; i != 0u - 2u; i -= 2) if ((s[i] - '0') % 2 == 0) { raze = 0; break; }
        }
        puts(raze ? "1" : "2");
    }
    return 0;
}
