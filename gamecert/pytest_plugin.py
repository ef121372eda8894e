"""pytest plugin: the ``--gamecert-profile`` option and the ``gamecert_profile`` fixture.

The profile (quick, default/ci, thorough) sets how many random cases each property gets and how
much of each exhaustive space is swept; ``GAMECERT_PROFILE`` sets it too.
"""

from __future__ import annotations

import pytest

from gamecert.profiles import ENV_VAR, PROFILES, Profile, get_profile


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamecert")
    group.addoption(
        "--gamecert-profile",
        default=None,
        choices=[*PROFILES, "ci"],
        help=f"how hard the gamecert checks look (default: ${ENV_VAR} or 'default')",
    )


def pytest_report_header(config: pytest.Config) -> str:
    profile = get_profile(config.getoption("--gamecert-profile"))
    return f"gamecert profile: {profile.name} ({profile.description})"


@pytest.fixture(scope="session")
def gamecert_profile(request: pytest.FixtureRequest) -> Profile:
    return get_profile(request.config.getoption("--gamecert-profile"))
