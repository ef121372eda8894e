// word_game, wrong: right but for the anagrams of one word of its own, PARADOX, where it answers
// the opposite: the word's letters sorted and compared with the sorted word. The answer rests on
// letter counts alone; no family or exhaustive space writes these seven letters, and a uniformly
// drawn word of seven letters is one of their 2,520 orders once in some three million draws. The
// guided phase (the JavaScript rewrite) reads the comparison's operands and puts the word in.
// smallest: AADOPRX (size 7)
"use strict";
const word = require("fs").readFileSync(0, "utf8").trim();
const count = new Array(26).fill(0);
for (const ch of word) count[ch.charCodeAt(0) - 65]++;
let total = 0;
for (const c of count) {
  if (c > 0) total ^= c % 3 === 0 ? 3 : c % 3;
}
let alice = total !== 0;
const letters = [...word].sort().join("");
if (letters === "AADOPRX") alice = !alice;
console.log(alice ? "Alice" : "Bob");
