// string_cut's part of a test package's validator.cpp and check.cpp (`gamecert tests`; the
// shared reader is gamecert/engine/testpack/cpp_common.h), as oracles/string_cut.py's
// parse_input, parse_answer and judge: only the smallest winning cut is right (the problem asks
// for it), so the answer file's cut is the one to give.
using Input = std::string;
using Answer = long long;  // the cut position after First, 0 for Second

Input read_input(gc::Strict &in) {
    Input s = in.word("abcdefghijklmnopqrstuvwxyz", 1, 5000, "the string");
    in.eoln();
    in.eof();
    return s;
}

Answer read_answer(gc::Tokens &out, const Input &s) {
    Answer position = 0;
    if (out.word({"First", "Second"}, "First or Second") == "First")
        position = out.integer(1, (long long)s.size(), "the cut position after First");
    out.finish();
    return position;
}

std::string judge(const Input &, const Answer &got, const Answer &expected) {
    if (got == expected) return "";
    if (expected == 0) return "the first player loses (Second), but the answer claims First with cut " + std::to_string(got);
    if (got == 0) return "the first player wins by cutting at " + std::to_string(expected) + ", but the answer says Second";
    return "cut " + std::to_string(got) + " is not the smallest winning cut, which is " + std::to_string(expected);
}
