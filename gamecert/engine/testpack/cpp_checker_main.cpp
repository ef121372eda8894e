
// ---- the checker: check INPUT OUTPUT ANSWER; exit 0 OK, 1 WA, 2 PE, 3 FAIL (testlib's codes) ----
int main(int argc, char **argv) {
    if (argc < 4) gc::quit(gc::FAIL, "usage: check INPUT OUTPUT ANSWER");
    gc::Strict in(gc::read_file(argv[1]));
    std::string output = gc::read_file(argv[2]), answer = gc::read_file(argv[3]);
    Input input;
    try {
        input = read_input(in);
    } catch (const gc::Fault &fault) {
        gc::quit(gc::FAIL, "the input is not valid: " + fault.message);
    }
    Answer expected, got;
    try {
        gc::Tokens reader(answer);
        expected = read_answer(reader, input);
    } catch (const gc::Verdict &v) {
        gc::quit(gc::FAIL, "the answer file is not a valid answer: " + v.message);
    }
    try {
        gc::Tokens reader(output);
        got = read_answer(reader, input);
    } catch (const gc::Verdict &v) {
        gc::quit(v.code, v.message);
    }
    std::string why = judge(input, got, expected);
    if (!why.empty()) gc::quit(gc::WA, why);
    gc::quit(gc::OK, "ok");
}
