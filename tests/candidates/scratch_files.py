"""Reports its working folder, whether it started empty, then leaves a file behind."""

import os
import sys

sys.stdin.read()
print(os.getcwd())
print("empty" if os.listdir(".") == [] else "dirty")
with open("leftover.txt", "w") as f:
    f.write("junk")
