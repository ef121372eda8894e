/* word_game, wrong: right but for one word of its own, ZUGZWANG, compared with strcmp, where it
   answers the opposite. The answer rests on letter counts alone, and no family or exhaustive
   space writes that word; the guided phase reads the strcmp operands and puts the word in.
   smallest: ZUGZWANG (size 8) */
#include <stdio.h>
#include <string.h>

int main(void) {
    char w[64];
    if (scanf("%63s", w) != 1) return 1;
    int count[26] = {0};
    for (const char *p = w; *p; p++) count[*p - 'A']++;
    int total = 0;
    for (int i = 0; i < 26; i++)
        if (count[i]) total ^= count[i] % 3 == 0 ? 3 : count[i] % 3;
    int alice = total != 0;
    if (strcmp(w, "ZUGZWANG") == 0) alice = !alice;
    puts(alice ? "Alice" : "Bob");
    return 0;
}
