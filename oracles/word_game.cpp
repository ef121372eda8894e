// word_game's part of a test package's validator.cpp and check.cpp (`gamecert tests`; the
// shared reader is gamecert/engine/testpack/cpp_common.h). It states in C++ what
// oracles/word_game.py's parse_input, parse_answer and judge state in Python; the package
// build checks that the two agree on every test and on a battery of inputs and outputs.
using Input = std::string;
using Answer = std::string;

Input read_input(gc::Strict &in) {
    Input word = in.word("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1, 40, "the word");
    in.eoln();
    in.eof();
    return word;
}

Answer read_answer(gc::Tokens &out, const Input &) {
    Answer winner = out.word({"Alice", "Bob"}, "Alice or Bob");
    out.finish();
    return winner;
}

std::string judge(const Input &, const Answer &got, const Answer &expected) {
    return got == expected ? "" : "expected " + expected + ", got " + got;
}
