// stones_once's part of a test package's validator.cpp and check.cpp (`gamecert tests`; the
// shared reader is gamecert/engine/testpack/cpp_common.h), as oracles/stones_once.py's
// parse_input, parse_answer and judge.
using Input = std::vector<int>;
using Answer = std::string;

Input read_input(gc::Strict &in) {
    long long n = in.integer(1, 1000000, "n, the number of piles");
    in.eoln();
    Input piles;
    piles.reserve(n);
    for (long long k = 0; k < n; ++k) {
        piles.push_back((int)in.integer(1, 60, "pile " + std::to_string(k + 1)));
        in.eoln();
    }
    in.eof();
    return piles;
}

Answer read_answer(gc::Tokens &out, const Input &) {
    Answer answer = out.word({"YES", "NO"}, "YES or NO");
    out.finish();
    return answer;
}

std::string judge(const Input &, const Answer &got, const Answer &expected) {
    return got == expected ? "" : "expected " + expected + ", got " + got;
}
