"""dawson_kayles, the octal heap game 0.07: the Hypothesis strategies, coverage features and largest inputs.

Built from the code alone by gamecert.kit.octal.octal_parts; nothing here is game-specific.
"""

from gamecert.kit.octal import octal_parts

globals().update(octal_parts("0.07", "dawson_kayles").exports("strategies"))

if __name__ == "__main__":
    from gamecert.kit.coverage import print_coverage

    print_coverage(globals()["instances"], globals()["features"])
