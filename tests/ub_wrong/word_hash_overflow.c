/* word_game, right answers resting on undefined behaviour: a signed integer overflow.
 * ub: signed overflow, line 19 (`h = h * 31 + c` in an int): for a word of 6 Z's or 7 letters
 * and more the hash passes INT_MAX. As GCC compiles it the sum wraps, and the hash only picks a
 * slot of a memo whose entries keep their word, so every answer is right; UBSan stops it at the
 * first overflow. The plain build is CERTIFIED; the sanitizer phase finds it on the samples
 * (ZADACHA), and the shrinker brings it down to the shortest word that still overflows.
 */
#include <stdio.h>
#include <string.h>

static char memo_word[1024][48];
static int memo_answer[1024];

static int grundy(int count) { return count == 0 ? 0 : (count % 3 == 0 ? 3 : count % 3); }

static int slot_of(const char *word) {
    int h = 0;
    for (const char *p = word; *p; p++)
        h = h * 31 + *p;
    return h & 1023;
}

int main(void) {
    char word[48];
    if (scanf("%47s", word) != 1) return 1;
    int slot = slot_of(word);
    if (strcmp(memo_word[slot], word) != 0) {
        int counts[26] = {0}, x = 0;
        for (size_t i = 0; i < strlen(word); i++) counts[word[i] - 'A']++;
        for (int i = 0; i < 26; i++) x ^= grundy(counts[i]);
        strcpy(memo_word[slot], word);
        memo_answer[slot] = x != 0;
    }
    puts(memo_answer[slot] ? "Alice" : "Bob");
    return 0;
}
