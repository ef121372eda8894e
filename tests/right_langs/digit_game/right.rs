// digit_game: n odd -> the last digit is one of Raze's (odd positions), and Raze keeps an odd
// one iff some odd position holds an odd digit; n even -> the last is one of Breach's (even
// positions), and Breach keeps an even one iff some even position holds an even digit.
use std::io::{self, Read, Write};

fn winner(digits: &[u8]) -> u8 {
    let n = digits.len();
    if n % 2 == 1 {
        let odd_at_odd = digits.iter().step_by(2).any(|d| (d - b'0') % 2 == 1);
        if odd_at_odd { 1 } else { 2 }
    } else {
        let even_at_even = digits.iter().skip(1).step_by(2).any(|d| (d - b'0') % 2 == 0);
        if even_at_even { 2 } else { 1 }
    }
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let mut it = text.split_ascii_whitespace();
    let t: usize = it.next().unwrap().parse().unwrap();
    let mut out = String::new();
    for _ in 0..t {
        let _n: usize = it.next().unwrap().parse().unwrap();
        let digits = it.next().unwrap().as_bytes();
        out.push(char::from(b'0' + winner(digits)));
        out.push('\n');
    }
    io::stdout().lock().write_all(out.as_bytes()).unwrap();
}
