// stones_once: the value of a pile is how many distinct amounts can be taken from it in turn.
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    array<int, 61> value{};
    for (int s = 1; s <= 60; ++s) {
        int k = 0;
        while ((k + 1) * (k + 2) / 2 <= s) ++k;
        value[s] = k;
    }
    int n;
    cin >> n;
    int x = 0;
    for (int i = 0; i < n; ++i) {
        int s;
        cin >> s;
        x ^= value[s];
    }
    cout << (x ? "NO" : "YES") << '\n';
}
