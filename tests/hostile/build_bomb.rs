// A compile bomb: a constant of 2 GiB, filled byte by byte by rustc's constant evaluator in its
// own memory before code generation.
const HUGE: [u8; 1 << 31] = [7; 1 << 31];
fn main() {
    println!("{}", HUGE[std::hint::black_box(5)]);
}
