// word_game: xor over letters of the Grundy value of each letter's count
use std::io::Read;

fn grundy(count: u32) -> u32 {
    if count == 0 {
        0
    } else if count % 3 == 0 {
        0
    } else {
        count % 3
    }
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut counts = [0u32; 26];
    for b in text.trim().bytes() {
        counts[(b - b'A') as usize] += 1;
    }
    let x = counts.iter().fold(0, |acc, &c| acc ^ grundy(c));
    println!("{}", if x != 0 { "Alice" } else { "Bob" });
}
