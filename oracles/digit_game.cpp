// digit_game's part of a test package's validator.cpp and check.cpp (`gamecert tests`; the
// shared reader is gamecert/engine/testpack/cpp_common.h), as oracles/digit_game.py's
// parse_input, parse_answer and judge: t games, one winner (1 or 2) each.
using Input = std::vector<std::string>;
using Answer = std::vector<long long>;

Input read_input(gc::Strict &in) {
    long long t = in.integer(1, 100, "t, the number of games");
    in.eoln();
    Input games;
    for (long long g = 1; g <= t; ++g) {
        long long n = in.integer(1, 1000, "n of game " + std::to_string(g));
        in.eoln();
        long start = in.column;
        std::string digits = in.word("0123456789", 1, 1000, "the number of game " + std::to_string(g));
        if ((long long)digits.size() != n) {
            in.column = start;
            in.fail("the number must have n = " + std::to_string(n) + " digits, got " + std::to_string(digits.size()));
        }
        if (digits[0] == '0') {
            in.column = start;
            in.fail("the number must not have a leading zero");
        }
        in.eoln();
        games.push_back(digits);
    }
    in.eof();
    return games;
}

Answer read_answer(gc::Tokens &out, const Input &games) {
    Answer winners;
    size_t t = games.size();
    for (size_t k = 1; k <= t; ++k)
        winners.push_back(out.integer(1, 2, "the winner of game " + std::to_string(k) + " of " + std::to_string(t)));
    out.finish();
    return winners;
}

std::string judge(const Input &games, const Answer &got, const Answer &expected) {
    for (size_t k = 0; k < got.size() && k < expected.size(); ++k)
        if (got[k] != expected[k])
            return "game " + std::to_string(k + 1) + " of " + std::to_string(games.size()) + ": expected " +
                   std::to_string(expected[k]) + ", got " + std::to_string(got[k]);
    return "";
}
