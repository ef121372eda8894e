// stones_once, wrong: a threshold of the program's own. Past 65,536 piles it reads the piles in
// blocks of 65,536, and its block loop drops a last block of a single pile (while (left > 1)):
// wrong on 65,537 piles, 131,073, ... (n % 65536 == 1). The largest inputs (10^6 piles) and the
// families miss those counts; the guided phase reads n > 65536 and sets the count to 65,537.
// smallest: 65537 piles (size 65537)
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    int value[61], k = 0;
    for (int s = 1; s <= 60; s++) {
        if ((k + 1) * (k + 2) / 2 <= s) k++;
        value[s] = k;
    }
    int total = 0;
    if (n > 65536) {
        std::vector<int> block(65536);
        int left = n;
        while (left > 1) {
            int take = left < 65536 ? left : 65536;
            for (int i = 0; i < take; i++)
                if (std::scanf("%d", &block[i]) != 1) return 1;
            for (int i = 0; i < take; i++) total ^= value[block[i]];
            left -= take;
        }
    } else {
        for (int i = 0; i < n; i++) {
            int s;
            if (std::scanf("%d", &s) != 1) return 1;
            total ^= value[s];
        }
    }
    std::puts(total == 0 ? "YES" : "NO");
    return 0;
}
