
// ---- the checker, testlib's: check INPUT OUTPUT ANSWER; exit 0 OK, 1 WA, 2 PE, 3 FAIL --------
int main(int argc, char **argv) {
    registerTestlibCmd(argc, argv);
    gc::Strict in(inf);
    Input input = read_input(in);
    gc::Tokens answer_file(ans), output(ouf);
    Answer expected = read_answer(answer_file, input);
    Answer got = read_answer(output, input);
    std::string why = judge(input, got, expected);
    if (!why.empty()) quitf(_wa, "%s", why.c_str());
    quitf(_ok, "ok");
}
