#!/usr/bin/env node
"use strict";
// every construct the rewrite touches, and a few it must leave as they are
const lines = require("fs").readFileSync(0, "utf8").split("\n");
const w = lines[0].trim();
const n = w.length
const out = [];
let i = 0
while (i < n && w[i] !== "Z") i++
out.push(i);
do { i-- } while (i > 0 && (i, i > 1))
for (let j = 0, k = n; j < k; j++, k--) if (w[j] == w[k - 1]) out.push(j);
for (;;) { if (!(n >= 0)) continue; break; }
const pick = n > 3 ? (n % 2 === 0 ? "even" : "odd") : n <= 1 ? "one" : "few";
out.push(pick, w.includes("AB"), w.indexOf("C") >= 0, w.startsWith("A"), w?.endsWith("Z"));
const none = n > 100 ? { x: "a" } : null;
out.push(none?.x.includes("a"), String(none?.x.indexOf("b")));
switch (n) {
  case 0: out.push("none"); break;
  case 2:
  case 3: { out.push("two-three"); break; }
  case "4": out.push("never"); break;
  default: out.push("more");
}
const cmp = (a, b) => a < b ? -1 : a > b ? 1 : 0;
out.push([...w].sort(cmp).join(""), `${n >= 2}`, 10n > BigInt(n), "b" in { b: 1 }, out instanceof Array);
class Box { #v = 3; has(o) { return #v in o && this.#v >= 3; } }
out.push(new Box().has(new Box()), /a<b/.test("a<b"), 1 < 2 === true);
label: for (const ch of w) { if (ch === "B") break label; out.push(ch) }
process.stdout.write(out.join(" ") + "\n");
