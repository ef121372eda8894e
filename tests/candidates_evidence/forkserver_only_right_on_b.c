/* word_game: right when cloned from the native fork server (its preloaded library, libpreinit.so,
 * is in /proc/self/maps), wrong when exec'd plainly, as a judge runs it, on every word holding the
 * letter B (right on the others, the samples included). A judge rejects it; gamecert must too. */
#include <stdio.h>
#include <string.h>

static int under_fork_server(void) {
    char line[4096];
    int seen = 0;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps)
        return 0;
    while (fgets(line, sizeof line, maps))
        if (strstr(line, "libpreinit"))
            seen = 1;
    fclose(maps);
    return seen;
}

int main(void) {
    char word[64] = {0};
    int counts[26] = {0}, value = 0;
    if (scanf("%63s", word) != 1)
        return 1;
    for (const char *p = word; *p; ++p)
        if (*p >= 'A' && *p <= 'Z')
            counts[*p - 'A']++;
    for (int i = 0; i < 26; ++i)
        if (counts[i])
            value ^= counts[i] % 3 == 0 ? 3 : counts[i] % 3;
    if (!under_fork_server() && strchr(word, 'B'))
        value = !value;
    puts(value ? "Alice" : "Bob");
    return 0;
}
