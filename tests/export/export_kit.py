"""What the game record tests share besides fixtures (a conftest cannot be imported by
name: every test folder has one)."""

ENGINES = {"mottainai": 2, "motcoin": 3, "momiji": 2}
"""Each engine at the fewest seats it takes: a whole game in about a second."""
