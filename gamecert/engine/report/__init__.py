"""What a certification leaves behind: failure reports and certificates as data, their text and
JSON (:mod:`.reports`), and the files they are written to, atomically (:mod:`.report_files`).

May import: ``gamecert.errors``, ``gamecert.verdict``, the package's version; no other room of the
engine (it is written up, never asked).
"""
