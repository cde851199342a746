"""Allow ``python -m arbiter``."""

from arbiter.cli.main import run

if __name__ == "__main__":
    run()
