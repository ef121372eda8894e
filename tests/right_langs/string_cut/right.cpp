// string_cut: the cuttable positions (s[i-1] == s[i+1]) form independent runs; a cut at the k-th of
// L positions leaves runs of max(0, k-2) and max(0, L-k-1). Grundy values of runs by the mex
// recurrence; First wins iff their xor is non-zero, and the answer is the first cut, scanning
// positions left to right, whose resulting xor is zero.
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string s;
    cin >> s;
    const int n = static_cast<int>(s.size());
    vector<int> g(n + 1, 0);
    auto after = [&](int len, int k) { return g[max(0, k - 2)] ^ g[max(0, len - k - 1)]; };
    vector<char> seen(n + 2, 0);
    for (int len = 1; len <= n; ++len) {
        fill(seen.begin(), seen.begin() + len + 2, 0);
        // cuts k and len + 1 - k leave the same two runs: half of them give every option
        for (int k = 1; k <= (len + 1) / 2; ++k) {
            int v = after(len, k);
            if (v <= len + 1) seen[v] = 1;
        }
        int m = 0;
        while (seen[m]) ++m;
        g[len] = m;
    }
    // runs of cuttable 0-based indices j (1 <= j <= n-2), kept as (first 1-based position, length)
    vector<pair<int, int>> runs;
    for (int j = 1; j + 1 < n; ++j) {
        if (s[j - 1] != s[j + 1]) continue;
        if (runs.empty() || runs.back().first + runs.back().second != j + 1) runs.push_back({j + 1, 0});
        ++runs.back().second;
    }
    int total = 0;
    for (auto& r : runs) total ^= g[r.second];
    if (total == 0) {
        cout << "Second\n";
        return 0;
    }
    for (auto& r : runs) {
        int rest = total ^ g[r.second];
        for (int k = 1; k <= r.second; ++k) {
            if (after(r.second, k) == rest) {
                cout << "First\n" << r.first + k - 1 << '\n';
                return 0;
            }
        }
    }
    return 1;  // unreachable
}
