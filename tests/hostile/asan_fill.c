/* Hostile for the sanitizer phase (issue 44, point 8): answers word_game right after touching
   1200 MB in 16 MB blocks, held to the end (a problem's limit is 256 MB). Under the asan build's
   old cap (2 GB) the run completes, having taken the phase's time and memory; under a cap fit to
   the problem's limit the kernel stops it early. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char word[256] = "";
    if (scanf("%255s", word) != 1) return 1;
    volatile char *blocks[75];
    for (int i = 0; i < 75; i++) {
        blocks[i] = malloc((size_t)16 << 20);
        if (!blocks[i]) return 2;
        for (size_t k = 0; k < ((size_t)16 << 20); k += 4096) blocks[i][k] = (char)k;
    }
    int counts[26] = {0}, x = 0;
    for (char *p = word; *p; p++) if (*p >= 'A' && *p <= 'Z') counts[*p - 'A']++;
    for (int i = 0; i < 26; i++) if (counts[i]) x ^= counts[i] % 3 == 0 ? 3 : counts[i] % 3;
    puts(x ? "Alice" : "Bob");
    return blocks[74][4096] == (char)4096 ? 0 : 3;
}
