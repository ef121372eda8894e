"""A word_game program that plants traps for a harness that opens names in its folders: symbolic
links and FIFOs under every name an I/O file could have, in its working folder and in /tmp,
pointing at a target file it is told about and at a folder. Then it answers right."""

import os
import sys

target = sys.stdin.readline().strip()
NAMES = ("stdin0", "stdin1", "stdout0", "stdout1", "stderr0", "stderr1", "pid", "server.log", "input", "output",
         "input.in", "expected.ans", "report.json", "certificate.json")
planted = 0
for folder in (os.getcwd(), "/tmp", os.environ.get("TMPDIR", "/tmp")):
    for i, name in enumerate(NAMES):
        path = os.path.join(folder, name)
        try:
            if i % 3 == 0:
                os.symlink(target, path)
            elif i % 3 == 1:
                os.mkfifo(path)
            else:
                os.symlink("/", path)
            planted += 1
        except OSError:
            pass
    try:  # a folder swapped for a link to the target's folder
        os.symlink(os.path.dirname(target), os.path.join(folder, "run1"))
    except OSError:
        pass
print("Alice" if planted else "Bob")
