
// ---- the validator: standard input, strictly; exit 0 valid, 3 invalid (testlib's FAIL) --------
int main() {
    gc::Strict in(gc::read_stream(stdin));
    try {
        read_input(in);
    } catch (const gc::Fault &fault) {
        gc::quit(gc::FAIL, fault.message);
    }
    return gc::OK;
}
