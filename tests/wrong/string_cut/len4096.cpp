// kind: wrong at one length only (C++): at 4,096 letters the last letter is dropped
// expect: WA
// family: decides-input-size
// string_cut, right but for one length: runs of cuttable positions are heaps of Dawson's chess
// (octal 0.137), values by mex up to 400 and with period 34 beyond. The planted slip: a string of
// exactly 4,096 letters loses its last letter (a buffer one short at a power of two), so a cut at
// the last but one position is missed there.
#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

static const int DIRECT = 400, PERIOD = 34;

int main() {
    std::string s;
    std::cin >> s;
    if (s.size() == 4096) s.pop_back();
    int n = (int)s.size();
    std::vector<std::pair<int, int>> runs;
    for (int i = 2; i < n;) {
        if (s[i - 2] == s[i]) {
            int start = i;
            while (i < n && s[i - 2] == s[i]) ++i;
            runs.push_back({start, i - start});
        } else {
            ++i;
        }
    }
    std::vector<int> g(DIRECT + 1, 0);
    for (int len = 1; len <= DIRECT; ++len) {
        std::vector<char> seen(512, 0);
        for (int k = 1; k <= len; ++k) seen[g[std::max(0, k - 2)] ^ g[std::max(0, len - k - 1)]] = 1;
        int m = 0;
        while (seen[m]) ++m;
        g[len] = m;
    }
    auto value = [&](int len) {
        while (len > DIRECT) len -= PERIOD;
        return g[len];
    };
    int total = 0;
    for (auto& r : runs) total ^= value(r.second);
    if (total == 0) {
        std::cout << "Second\n";
        return 0;
    }
    for (auto& r : runs) {
        int rest = total ^ value(r.second);
        for (int k = 1; k <= r.second; ++k) {
            if ((rest ^ value(std::max(0, k - 2)) ^ value(std::max(0, r.second - k - 1))) == 0) {
                std::cout << "First\n" << r.first + k - 1 << "\n";
                return 0;
            }
        }
    }
    return 1;
}
