/* word_game, right (for the AFL++ harness; tests/right_langs has no word_game): a letter seen c
   times is worth 3 if c % 3 == 0 else c % 3, the word the xor of its letters' values
   (proofs/word_game); Alice wins iff it is not 0. */
#include <stdio.h>

int main(void) {
    char word[64];
    int count[26] = {0}, total = 0;
    if (scanf("%63s", word) != 1) return 1;
    for (const char *p = word; *p; p++) count[*p - 'A']++;
    for (int i = 0; i < 26; i++)
        if (count[i]) total ^= count[i] % 3 == 0 ? 3 : count[i] % 3;
    puts(total ? "Alice" : "Bob");
    return 0;
}
