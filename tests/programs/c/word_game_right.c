/* word_game: xor over letters of the Grundy value of each letter's count */
#include <stdio.h>
#include <string.h>

static int grundy(int count) {
    if (count == 0) return 0;
    return count % 3 == 0 ? 3 : count % 3;
}

int main(void) {
    char word[64];
    int counts[26] = {0}, x = 0;
    if (scanf("%63s", word) != 1) return 1;
    for (size_t i = 0; i < strlen(word); i++) counts[word[i] - 'A']++;
    for (int i = 0; i < 26; i++) x ^= grundy(counts[i]);
    puts(x ? "Alice" : "Bob");
    return 0;
}
