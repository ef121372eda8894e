/* kind: memo of a letter's Grundy value keyed by count % 32: counts of 32 and more collide with smaller ones */
/* expect: WA */
#include <stdio.h>
#include <string.h>

static int memo[32], seen[32];

static int grundy(int c) {
    if (c <= 0) return 0;
    if (seen[c % 32]) return memo[c % 32];
    int a = grundy(c - 1), b = c >= 2 ? grundy(c - 2) : -1, z = 0;
    int m = 0;
    while (m == a || m == b || m == z) m++;
    seen[c % 32] = 1;
    memo[c % 32] = m;
    return m;
}

int main(void) {
    char w[64];
    if (scanf("%63s", w) != 1) return 0;
    int cnt[26] = {0};
    for (size_t i = 0; i < strlen(w); i++) cnt[w[i] - 'A']++;
    int x = 0;
    for (int i = 0; i < 26; i++) x ^= grundy(cnt[i]);
    puts(x ? "Alice" : "Bob");
    return 0;
}
