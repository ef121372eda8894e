// word_game: xor over letters of the Grundy value of each letter's count
#include <iostream>
#include <string>

int grundy(int count) {
    if (count == 0) return 0;
    return count % 3 == 0 ? 0 : count % 3;
}

int main() {
    std::string word;
    std::cin >> word;
    int counts[26] = {0};
    for (char c : word) counts[c - 'A']++;
    int x = 0;
    for (int c : counts) x ^= grundy(c);
    std::cout << (x ? "Alice" : "Bob") << '\n';
}
