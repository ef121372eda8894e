// dawson_kayles (octal 0.07): take 2 tokens from a heap of n, leaving heaps a + b = n - 2 (0: none);
// the Grundy value is g(n) = mex{g(a) ^ g(n-2-a)}, tabled to 1000. First wins iff the xor X != 0,
// and then moves on a heap h with g(h) ^ X < g(h) to a split of value g(h) ^ X (the mex guarantees one).
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    const int N = 1000;
    vector<int> g(N + 1, 0);
    for (int n = 2; n <= N; ++n) {
        vector<bool> seen(1024, false);
        for (int a = 0; a <= (n - 2) / 2; ++a) seen[g[a] ^ g[n - 2 - a]] = true;
        int v = 0;
        while (seen[v]) ++v;
        g[n] = v;
    }
    int m;
    if (!(cin >> m)) return 1;
    vector<int> heap(m);
    int x = 0;
    for (auto &h : heap) {
        cin >> h;
        x ^= g[h];
    }
    if (x == 0) {
        cout << "Second\n";
        return 0;
    }
    for (int i = 0; i < m; ++i) {
        int h = heap[i], t = g[h] ^ x;
        if (t >= g[h]) continue;
        for (int a = 0; a <= (h - 2) / 2; ++a) {
            if ((g[a] ^ g[h - 2 - a]) == t) {
                cout << "First\n" << i + 1 << ' ' << a << ' ' << h - 2 - a << '\n';
                return 0;
            }
        }
    }
    return 1;  // unreachable
}
