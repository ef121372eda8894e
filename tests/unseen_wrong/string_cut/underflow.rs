// kind: the piece right of a cut is length - k - 1 in usize: at the last cut of a run of 2 or more (k = length) it wraps below zero, reached only when no earlier cut of the run wins
// expect: RE
use std::io::*;

fn main() {
    let mut s = String::new();
    stdin().read_line(&mut s).unwrap();
    let b = s.trim().as_bytes();
    let n = b.len();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 2;
    while i < n {
        if b[i - 2] == b[i] {
            let st = i;
            while i < n && b[i - 2] == b[i] { i += 1; }
            runs.push((st, i - st));
        } else { i += 1; }
    }
    let longest = runs.iter().map(|r| r.1).max().unwrap_or(0);
    let mut g = vec![0usize; longest + 2];
    for l in 1..=longest {
        let mut seen = vec![false; l + 3];
        for k in 1..=l {
            let left = if k >= 2 { k - 2 } else { 0 };
            let right = if l >= k + 1 { l - k - 1 } else { 0 };
            let v = g[left] ^ g[right];
            if v < seen.len() { seen[v] = true; }
        }
        let mut m = 0;
        while seen[m] { m += 1; }
        g[l] = m;
    }
    let mut total = 0;
    for r in &runs { total ^= g[r.1]; }
    if total == 0 { println!("Second"); return; }
    for r in &runs {
        let rest = total ^ g[r.1];
        if r.1 == 1 {
            if rest == 0 { println!("First\n{}", r.0); return; }
            continue;
        }
        for k in 1..=r.1 {
            let left = if k >= 2 { k - 2 } else { 0 };
            let right = r.1.wrapping_sub(k).wrapping_sub(1);
            if rest ^ g[left] ^ g[right] == 0 {
                println!("First\n{}", r.0 + k - 1);
                return;
            }
        }
    }
}
