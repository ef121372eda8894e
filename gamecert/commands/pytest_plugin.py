"""pytest plugin: the ``--gamecert-profile`` option and the ``gamecert_profile`` fixture.

The profile (quick, default/ci, thorough) sets how many random cases each property gets and how
much of each exhaustive space is swept; ``GAMECERT_PROFILE`` sets it too. The header line
naming the profile is printed only in sessions that involve gamecert (see :func:`involves_gamecert`):
installed, the plugin is loaded into every pytest run of the environment and must stay silent
in the others.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamecert.engine.plan.profiles import ENV_VAR, PROFILES, Profile, get_profile


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamecert")
    group.addoption(
        "--gamecert-profile",
        default=None,
        choices=[*PROFILES, "ci"],
        help=f"how hard the gamecert checks look (default: ${ENV_VAR} or 'default')",
    )


def pytest_report_header(config: pytest.Config) -> list[str]:
    if not involves_gamecert(config):
        return []
    profile = get_profile(config.getoption("--gamecert-profile"))
    return [f"gamecert profile: {profile.name} ({profile.description})"]


def involves_gamecert(config: pytest.Config) -> bool:
    """Whether this session runs gamecert's checks: ``--candidate`` or ``--gamecert-profile`` was
    given, or a path it tests is in the project gamecert is imported from (or holds it)."""
    if config.getoption("--gamecert-profile") is not None or _option(config, "candidate"):
        return True
    import gamecert

    project = Path(gamecert.__file__).resolve().parent.parent
    base = Path(config.invocation_params.dir)
    for arg in config.args:
        path = (base / arg.split("::", 1)[0]).resolve()
        if (
            path == project
            or project in path.parents
            or (path in project.parents and path != Path(path.anchor))
        ):
            return True
    return False


def _option(config: pytest.Config, name: str) -> object:
    try:
        return config.getoption(name)
    except ValueError:  # the candidate plugin is not loaded
        return None


@pytest.fixture(scope="session")
def gamecert_profile(request: pytest.FixtureRequest) -> Profile:
    return get_profile(request.config.getoption("--gamecert-profile"))
