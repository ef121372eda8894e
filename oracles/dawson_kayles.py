"""dawson_kayles, the octal heap game 0.07: the game (rules, formats, minimax and the Sprague-Grundy oracle).

Built from the code alone by gamecert.kit.octal.octal_parts; nothing here is game-specific.
"""

from gamecert.kit.octal import octal_parts

globals().update(octal_parts("0.07", "dawson_kayles").exports("oracles"))
