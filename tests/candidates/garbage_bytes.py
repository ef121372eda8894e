import sys

sys.stdin.read()
sys.stdout.buffer.write(b"\xff\xfe\x80Alice\xc3\n")
