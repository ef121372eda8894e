// stones_once, right answers resting on undefined behaviour: an array read one past its end.
// ub: out-of-bounds read, line 30 (`table.grundy[s]` with s = 60, the array has 60 entries):
// the table holds the Grundy values of piles 0..59, and a pile of 60 reads the int after the
// array, which in this struct is `largest`, set to the value of 60 (10). As GCC lays the struct
// out the read finds the right value, so every answer is right and the plain build is CERTIFIED;
// UBSan's bounds check stops it on the first pile of 60 stones (worst cases, largest inputs),
// and the shrinker brings it down to a single pile of 60.
#include <cstdio>

struct Table {
    int grundy[60];  // piles 0..59 (one short: a pile may hold 60 stones)
    int largest;     // the largest Grundy value a pile reaches, the value of a pile of 60
};

static Table table;

int main() {
    for (int s = 0; s < 60; s++) {
        int k = 0;
        while ((k + 1) * (k + 2) / 2 <= s) k++;
        table.grundy[s] = k;
    }
    table.largest = 10;
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    int x = 0;
    for (int i = 0; i < n; i++) {
        int s;
        if (std::scanf("%d", &s) != 1) return 1;
        x ^= table.grundy[s];
    }
    std::puts(x == 0 ? "YES" : "NO");
    return 0;
}
