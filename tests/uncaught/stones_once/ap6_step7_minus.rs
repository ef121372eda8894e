// stones_once, wrong (issue 47): as tests/guided_wrong/stones_once/ap6_step7.rs, the answer
// flipped for six piles 1 8 15 22 29 36 (from 1, each 7 more than the one before), but the step
// tested as a difference, `w[1] - w[0] == 7`: the comparison's operands are the difference and 7,
// neither a number of the input, where `w[1] == w[0] + 7` compares a pile with a derived value
// and input to state writes it back. See tests/uncaught/README.md.
// smallest: 1 8 15 22 29 36 (size 111)
use std::io::{self, Read, Write};

fn value(s: i64) -> i64 {
    let mut k = 0;
    while (k + 1) * (k + 2) / 2 <= s {
        k += 1;
    }
    k
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let mut it = text.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let piles: Vec<i64> = it.take(n).collect();
    let mut first_wins = piles.iter().fold(0, |acc, &s| acc ^ value(s)) != 0;
    if n == 6 && piles[0] == 1 && piles.windows(2).all(|w| w[1] - w[0] == 7) {
        first_wins = !first_wins;
    }
    let out = io::stdout();
    writeln!(out.lock(), "{}", if first_wins { "NO" } else { "YES" }).unwrap();
}
