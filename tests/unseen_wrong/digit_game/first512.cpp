// kind: looks for the deciding digit only among the first 512 positions: a digit pattern deep in a long number is missed
// expect: WA
#include <bits/stdc++.h>
using namespace std;

int main() {
    int t;
    cin >> t;
    while (t--) {
        int n;
        string s;
        cin >> n >> s;
        int lim = min(n, 512);
        bool raze;
        if (n % 2) {
            raze = false;
            for (int i = 0; i < lim; i += 2) if ((s[i] - '0') % 2) raze = true;
        } else {
            raze = true;
            for (int i = 1; i < lim; i += 2) if ((s[i] - '0') % 2 == 0) raze = false;
        }
        puts(raze ? "1" : "2");
    }
}
