"""A word_game program that looks for the harness: it imports gamecert and the game's oracle, and
searches the folders it can see (sys.path, the interpreter's prefix, the mount points of its view)
for gamecert's package and the oracle's source, reading what it finds. It answers right, unless
it found something: then it prints what it found instead of the answer (a wrong answer)."""

import os
import sys
from collections import Counter

found = []
try:
    import gamecert.oracles.word_game as oracle_module

    found.append(f"imported the oracle from {oracle_module.__file__}")
except Exception:
    pass
try:
    from gamecert.engine import registry

    found.append(f"imported the registry: {registry.get('word_game').game!r}")
except Exception:
    pass

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/proc", "/dev", "/etc", "/sys")
roots = {*sys.path, sys.prefix, sys.base_prefix, sys.exec_prefix}
try:
    with open("/proc/self/mountinfo") as f:
        roots |= {line.split()[4] for line in f}
except OSError:
    pass
for root in sorted(r for r in roots if r and r != "/" and not r.startswith(SYSTEM)):
    for folder, dirs, files in os.walk(root):
        if folder.count(os.sep) - root.count(os.sep) > 6:
            dirs[:] = []
        for name in files:
            path = os.path.join(folder, name)
            if name == "word_game.py" and "oracles" in path or (name.endswith(".py") and "gamecert" in path):
                try:
                    with open(path) as f:
                        if f.read(200):
                            found.append(f"read {path}")
                except OSError:
                    pass
        if len(found) > 3:
            break


def grundy(count):
    return 0 if count == 0 else 3 if count % 3 == 0 else count % 3


x = 0
for count in Counter(input().strip()).values():
    x ^= grundy(count)
print(" | ".join(found[:3]) if found else ("Alice" if x else "Bob"))
