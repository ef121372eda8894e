// kind: wrong when the number of heaps of bit length 7 (64..127 pins) is odd
// class: count[bits=7]%2 == 1
// (a parity of a bit-length class: the winner said backwards)
#include <cstdio>
#include <vector>
#include <set>
int main() {
    int m;
    if (scanf("%d", &m) != 1) return 1;
    std::vector<int> heaps(m);
    int top = 2;
    for (auto &h : heaps) { scanf("%d", &h); if (h > top) top = h; }
    std::vector<int> g(top + 1, 0);
    for (int n = 2; n <= top; n++) {
        int rest = n - 2;
        std::set<int> seen;
        for (int a = 0; a <= rest / 2; a++) seen.insert(g[a] ^ g[rest - a]);
        int x = 0;
        while (seen.count(x)) x++;
        g[n] = x;
    }
    int total = 0, sevens = 0;
    for (int h : heaps) { total ^= g[h]; if (h >= 64 && h < 128) sevens++; }
    bool flip = sevens % 2 == 1;
    if ((total == 0) != flip) { puts("Second"); return 0; }
    if (total == 0) { puts("First\n1 0 0"); return 0; }
    for (int i = m - 1; i >= 0; i--) {
        int h = heaps[i], target = g[h] ^ total;
        if (h < 2) continue;
        int rest = h - 2;
        for (int b = rest / 2; b >= 0; b--)
            if ((g[rest - b] ^ g[b]) == target) { printf("First\n%d %d %d\n", i + 1, rest - b, b); return 0; }
    }
    return 0;
}
