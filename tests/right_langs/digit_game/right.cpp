// digit_game: the last digit is in Raze's (odd) positions when n is odd, in Breach's (even)
// positions when n is even; the owner of that class keeps their parity iff the class holds a
// digit of it, since each player marks the other parity first. Several games per input.
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int t;
    cin >> t;
    string out;
    while (t-- > 0) {
        int n;
        string s;
        cin >> n >> s;
        int winner;
        if (n % 2 == 1) {
            bool oddAtOdd = false;
            for (int i = 0; i < n; i += 2) oddAtOdd |= (s[i] - '0') % 2 == 1;
            winner = oddAtOdd ? 1 : 2;
        } else {
            bool evenAtEven = false;
            for (int i = 1; i < n; i += 2) evenAtEven |= (s[i] - '0') % 2 == 0;
            winner = evenAtEven ? 2 : 1;
        }
        out += char('0' + winner);
        out += '\n';
    }
    cout << out;
}
