// kind: the Grundy table is a vector sized from the number of runs (2 per run + 64), not from the longest run: out of range on a long run among few
// expect: RE
#include <bits/stdc++.h>
using namespace std;

int main() {
    string s;
    cin >> s;
    int n = s.size();
    vector<pair<int,int>> runs;
    for (int i = 2; i < n;) {
        if (s[i - 2] == s[i]) {
            int st = i;
            while (i < n && s[i - 2] == s[i]) i++;
            runs.push_back({st, i - st});
        } else i++;
    }
    int longest = 0;
    for (auto &r : runs) longest = max(longest, r.second);
    vector<int> g(2 * runs.size() + 64, 0);
    for (int L = 1; L <= longest; L++) {
        vector<char> seen(L + 2, 0);
        for (int k = 1; k <= L; k++) {
            int v = g.at(max(0, k - 2)) ^ g.at(max(0, L - k - 1));
            if (v < (int)seen.size()) seen[v] = 1;
        }
        int m = 0;
        while (seen[m]) m++;
        g.at(L) = m;
    }
    int total = 0;
    for (auto &r : runs) total ^= g.at(r.second);
    if (!total) { puts("Second"); return 0; }
    for (auto &r : runs) {
        int rest = total ^ g[r.second];
        for (int k = 1; k <= r.second; k++)
            if ((rest ^ g[max(0, k - 2)] ^ g[max(0, r.second - k - 1)]) == 0) {
                printf("First\n%d\n", r.first + k - 1);
                return 0;
            }
    }
    return 0;
}
