/* digit_game, right answers resting on undefined behaviour: a variable read before it is set.
 * ub: uninitialised read, line 18 (`return winner`: on n = 1 with an even digit no branch set
 * it; valgrind on an -O0 -g build sees the value used at line 35, made at line 13). GCC -O2 takes the value of a variable that is set on one path only to be that value
 * (reading it on the other path is undefined, so the compiler may assume anything), so that game
 * gets 2, which is right: the plain build is CERTIFIED. UBSan and ASan do not see uninitialised
 * reads. The sanitizer phase's build with every automatic variable started as 0xFE bytes
 * (-ftrivial-auto-var-init=pattern) answers -16843010 on the statement's sample (its game
 * "1 / 2"), which is wrong, and the shrinker keeps that one game.
 */
#include <stdio.h>

/* n odd: Raze marks last, and wins if an odd digit stands at an odd position */
static int odd_length_winner(int n, const char *digits) {
    int winner;
    for (int i = 0; i < n; i += 2)
        if ((digits[i] - '0') % 2 == 1) return 1;
    if (n > 1) winner = 2;  /* no odd digit there: Breach wins (n = 1 forgotten) */
    return winner;
}

/* n even: Breach marks last, and wins if an even digit stands at an even position */
static int even_length_winner(int n, const char *digits) {
    for (int i = 1; i < n; i += 2)
        if ((digits[i] - '0') % 2 == 0) return 2;
    return 1;
}

int main(void) {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        char digits[1024];
        if (scanf("%d %1023s", &n, digits) != 2) return 1;
        printf("%d\n", n % 2 == 1 ? odd_length_winner(n, digits) : even_length_winner(n, digits));
    }
    return 0;
}
