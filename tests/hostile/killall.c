/* Sends SIGKILL to every process it may signal (kill(-1)): inside the sandbox that is every
 * process of it but PID 1 and itself (the native fork server among them), then answers word_game
 * right. The verdict must stay OK, test after test, and nothing outside may be touched. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    char word[64] = {0};
    if (scanf("%63s", word) != 1) return 1;
    int killed = kill(-1, SIGKILL) == 0;
    int counts[26] = {0}, total = 0;
    for (size_t i = 0; i < strlen(word); i++) counts[word[i] - 'A']++;
    for (int i = 0; i < 26; i++)
        if (counts[i]) total ^= counts[i] % 3 == 0 ? 3 : counts[i] % 3;
    fprintf(stderr, "kill(-1): %s\n", killed ? "sent" : "refused");
    puts(total ? "Alice" : "Bob");
    return 0;
}
